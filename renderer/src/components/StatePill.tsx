// A state as colour AND a symbol AND words (never colour alone), the same for orders and top-ups.
export type Tone = 'good' | 'bad' | 'warn' | 'info';

export function StatePill(props: { tone: Tone; symbol: string; label: string; state: string; small?: boolean }) {
  return (
    <span
      className={`pill state-pill${props.small ? ' state-pill-small' : ''}`}
      data-tone={props.tone}
      data-state={props.state}
    >
      <span aria-hidden="true" className="state-symbol">
        {props.symbol}
      </span>
      {props.label}
    </span>
  );
}
