// The Orders screen's search form: the number field, "More filters" (open when one of them is set),
// Search and Clear.
import { useState, type FormEvent } from 'react';
import { Banner } from '../components/bits';
import { DayField } from '../components/DayField';
import { ORDER_STATES, statePill, type OrderFilterForm } from '../format';

const TEXT_FIELDS: { k: keyof OrderFilterForm; label: string; hint?: string; inputMode?: 'numeric' | 'decimal' }[] = [
  {
    k: 'number',
    label: 'Sale, provider order or payment number',
    hint: "COU1-…, or the provider number's last digits",
  },
  { k: 'film', label: 'Film', hint: 'part of the name' },
  { k: 'seat', label: 'Seat', hint: 'one seat, e.g. F7' },
  { k: 'amount', label: 'Amount (₦)', inputMode: 'decimal' },
  { k: 'cashier', label: 'Cashier' },
];

/** The filters behind "More filters" (open when one of them is set). */
const MORE_FILTERS: (keyof OrderFilterForm)[] = [
  'film',
  'seat',
  'amount',
  'cashier',
  'counterId',
  'state',
  'from',
  'to',
  'practice',
  'paidAfterClosing',
];

function TextField({
  x,
  f,
  set,
}: {
  x: (typeof TEXT_FIELDS)[number];
  f: OrderFilterForm;
  set: (k: keyof OrderFilterForm, v: string) => void;
}) {
  return (
    <div className="field">
      <label htmlFor={`f-${x.k}`}>
        {x.label}
        {x.hint ? <span className="hint"> ({x.hint})</span> : null}
      </label>
      <input
        id={`f-${x.k}`}
        value={f[x.k] ?? ''}
        inputMode={x.inputMode}
        onChange={(e) => set(x.k, e.target.value)}
        autoComplete="off"
      />
    </div>
  );
}

export function Filters({
  initial,
  counters,
  onSearch,
  problem,
}: {
  initial: OrderFilterForm;
  counters: { id: string; name: string }[];
  onSearch: (f: OrderFilterForm) => void;
  problem: string | null;
}) {
  const [f, setF] = useState<OrderFilterForm>(initial);
  const set = (k: keyof OrderFilterForm, v: string) => setF((x) => ({ ...x, [k]: v }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSearch(f);
  };
  return (
    <form className="card filters" onSubmit={submit} role="search" aria-label="Search orders">
      <div className="filter-grid">
        <TextField x={TEXT_FIELDS[0]!} f={f} set={set} />
      </div>
      <details className="more-filters" open={MORE_FILTERS.some((k) => initial[k])}>
        <summary>More filters</summary>
        <div className="filter-grid">
          {TEXT_FIELDS.slice(1).map((x) => (
            <TextField key={x.k} x={x} f={f} set={set} />
          ))}
          <div className="field">
            <label htmlFor="f-counterId">Counter</label>
            <select id="f-counterId" value={f.counterId ?? ''} onChange={(e) => set('counterId', e.target.value)}>
              <option value="">Any counter</option>
              {counters.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="f-state">State</label>
            <select id="f-state" value={f.state ?? ''} onChange={(e) => set('state', e.target.value)}>
              <option value="">Any state</option>
              {ORDER_STATES.map((s) => (
                <option key={s} value={s}>
                  {statePill(s).label}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="f-from">From (day)</label>
            <DayField id="f-from" value={f.from ?? ''} onChange={(d) => set('from', d)} />
          </div>
          <div className="field">
            <label htmlFor="f-to">To (day, included)</label>
            <DayField id="f-to" value={f.to ?? ''} onChange={(d) => set('to', d)} />
          </div>
          <div className="field">
            <label htmlFor="f-practice">Demo and Sandbox sales</label>
            <select id="f-practice" value={f.practice ?? 'exclude'} onChange={(e) => set('practice', e.target.value)}>
              <option value="exclude">Leave out</option>
              <option value="include">Include</option>
              <option value="only">Only these</option>
            </select>
          </div>
          <div className="field">
            <label htmlFor="f-late">Paid after closing</label>
            <select
              id="f-late"
              value={f.paidAfterClosing ?? ''}
              onChange={(e) => set('paidAfterClosing', e.target.value)}
            >
              <option value="">Any</option>
              <option value="only">Only money taken after the sale was closed</option>
            </select>
          </div>
        </div>
      </details>
      {problem ? <Banner tone="bad">{problem}</Banner> : null}
      <div className="actions">
        <button className="primary" type="submit">
          Search
        </button>
        <button
          type="button"
          onClick={() => {
            setF({});
            onSearch({});
          }}
        >
          Clear
        </button>
      </div>
    </form>
  );
}
