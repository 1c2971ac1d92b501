// The day a screen shows (?day=, today when absent, as a Lagos day) and the Earlier / date /
// Later / Today buttons that move it.
import { useEffect } from 'react';
import { addDays, lagosDate } from '../../../../shared/time';
import { useDash } from '../store';
import { DayField } from './DayField';
import { useEvery } from '../use-load';

/** The day in the address (today when none) and `go`, which moves to another (today drops ?day=). */
export function useDay(): { day: string; todayDay: string; go(d: string): void } {
  const route = useDash((s) => s.route);
  const setQuery = useDash((s) => s.setQuery);
  const todayDay = lagosDate(Date.now());
  const day = route.query.get('day') ?? todayDay;
  const go = (d: string) => {
    const q = new URLSearchParams(route.query);
    if (d === todayDay) q.delete('day');
    else q.set('day', d);
    setQuery(q);
  };
  return { day, todayDay, go };
}

/** Reloads a day's numbers: on today, when the live feed reports a change (at most every 2 s); and every minute. */
export function useFollowDay(day: string, todayDay: string, reload: () => void): void {
  const changes = useDash((s) => s.live.changes);
  useEffect(() => {
    if (changes === 0 || day !== todayDay) return;
    const t = setTimeout(reload, 2000);
    return () => clearTimeout(t);
  }, [changes, day, todayDay, reload]);
  useEvery(60_000, reload);
}

/** `future`: days after today may be shown (a programme); `todayButton`: a Today button off today. */
export function DayNav(props: {
  day: string;
  todayDay: string;
  go(d: string): void;
  future?: boolean;
  todayButton?: boolean;
}) {
  const { day, todayDay, go } = props;
  return (
    <div className="day-nav" role="group" aria-label="Day">
      <button type="button" onClick={() => go(addDays(day, -1))} aria-label="Previous day">
        ‹ Earlier
      </button>
      <DayField
        id="day-shown"
        aria-label="Day shown"
        value={day}
        max={props.future ? undefined : todayDay}
        onChange={(d) => d && go(d)}
      />
      <button
        type="button"
        onClick={() => go(addDays(day, 1))}
        disabled={props.future ? undefined : day >= todayDay}
        aria-label="Next day"
      >
        Later ›
      </button>
      {props.todayButton && day !== todayDay ? (
        <button type="button" onClick={() => go(todayDay)}>
          Today
        </button>
      ) : null}
    </div>
  );
}
