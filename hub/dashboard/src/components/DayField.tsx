// A day chosen with the browser's own date picker, shown to people in the dashboard's one format
// ("Wed 25 Nov 2026", a Lagos calendar day) whatever the browser's language: the native control
// keeps the picker, the keyboard and the yyyy-MM-dd value; its own text (11/25/2026 in a US browser)
// is hidden under ours. ISO days stay in addresses and files.
import { dayMedium } from '../format';

export function DayField(props: {
  id: string;
  value: string;
  onChange(day: string): void;
  max?: string;
  'aria-label'?: string;
  empty?: string;
}) {
  const shown = props.value ? dayMedium(props.value) : (props.empty ?? 'Any day');
  // The weekday in a span of its own: a narrow field drops it and keeps "25 Nov 2026".
  const cut = props.value ? shown.indexOf(' ') : -1;
  return (
    <span className="day-field" data-empty={props.value ? undefined : true}>
      <input
        id={props.id}
        type="date"
        value={props.value}
        max={props.max}
        aria-label={props['aria-label']}
        aria-describedby={`${props.id}-shown`}
        onChange={(e) => props.onChange(e.target.value)}
      />
      <span id={`${props.id}-shown`} className="day-field-shown" aria-hidden="true" data-testid="day-shown">
        {cut > 0 ? (
          <>
            <span className="day-field-wd">{shown.slice(0, cut + 1)}</span>
            {shown.slice(cut + 1)}
          </>
        ) : (
          shown
        )}
      </span>
    </span>
  );
}
