// One end of the Orders screen's time window: a day (the browser's date picker, which writes the
// date in the browser's own locale, 11/25/2026 or 25/11/2026) with the same day beside it in the
// one format people read everywhere in CounterPay ("Wed, 25 Nov 2026"), so nobody has to guess
// which is the month; and an optional time (HH:mm, 24-hour, Lagos) that narrows the day.
import { useEffect, useState } from 'react';
import { showDateText } from '../../format';

const COMPLETE_TIME = /^\d{2}:\d{2}$/;

export function DayTimeBound(p: {
  label: 'From' | 'To';
  date: string;
  time: string;
  min?: string | undefined;
  max?: string | undefined;
  timeError?: string | undefined;
  onDate: (date: string) => void;
  onTime: (time: string) => void;
}) {
  const [time, setTime] = useState(p.time);
  useEffect(() => setTime(p.time), [p.time]);
  const key = p.label.toLowerCase();
  // A time is searched once it is whole (or cleared); on leaving the field whatever is there, so a wrong one is said.
  const typed = (v: string) => {
    setTime(v);
    if (v === '' || COMPLETE_TIME.test(v)) p.onTime(v);
  };
  return (
    <div className="day-bound" role="group" aria-label={p.label}>
      <label>
        <span className="day-bound-name">{p.label}</span>{' '}
        <input
          type="date"
          value={p.date}
          min={p.min || undefined}
          max={p.max || undefined}
          onChange={(e) => p.onDate(e.target.value)}
        />
      </label>
      <label>
        at{' '}
        <input
          type="text"
          className="time-input"
          inputMode="numeric"
          placeholder={p.label === 'From' ? '00:00' : '23:59'}
          maxLength={5}
          autoComplete="off"
          spellCheck={false}
          aria-label={`${p.label} time (HH:mm, 24-hour)`}
          aria-invalid={p.timeError ? true : undefined}
          value={time}
          onChange={(e) => typed(e.target.value.trim())}
          onBlur={() => time !== p.time && p.onTime(time)}
        />
      </label>
      <span className="day-people" data-testid={`${key}-day-text`}>
        {p.date ? `${showDateText(p.date)}${p.time ? `, ${p.time}` : ''}` : 'any day'}
      </span>
      {p.timeError && (
        <p className="field-error" role="alert">
          {p.timeError}
        </p>
      )}
    </div>
  );
}
