// The basket as the cashier builds it, always in view: its lines (tickets by type, the booking fee,
// each concession line with its choice and quantity) with the engine's amounts and each problem
// under its line; how the customer pays (card, cash, split, by F-key or one letter) with the cash
// typed; and the total and the change, big. Every figure is the engine's (`sale.priceBasket`).
import { forwardRef, useEffect, useRef } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { TenderKind } from '../../../../shared/basket';
import { formatNaira } from '../../format';
import { useBasket } from '../../stores/basket-store';

/** The tenders with their F-key and letter, in the order shown. */
export const TENDERS: { kind: TenderKind; label: string; key: string; letter: string }[] = [
  { kind: 'card', label: 'Card', key: 'F6', letter: 'p' },
  { kind: 'cash', label: 'Cash', key: 'F7', letter: 'c' },
  { kind: 'split', label: 'Split', key: 'F8', letter: 's' },
];

/** The basket's lines. `tickets`: the seats with their types, shown before the engine has priced them. */
export function BasketLines({ tickets }: { tickets: { seat: string; type: string }[] }) {
  const b = useBasket(
    useShallow((s) => ({
      catalogue: s.catalogue,
      lines: s.lines,
      selected: s.selected,
      priced: s.priced,
      problems: s.problems,
      pricingError: s.pricingError,
      select: s.select,
    })),
  );
  const pricedTickets = b.priced?.lines.filter((l) => l.kind === 'tickets') ?? null;
  const pricedConcessions = b.priced?.lines.filter((l) => l.kind !== 'tickets') ?? [];
  const nameOf = (code: string) =>
    b.catalogue?.items.find((i) => i.code === code)?.name ?? b.catalogue?.combos.find((c) => c.code === code)?.name;
  const empty = tickets.length === 0 && b.lines.length === 0;
  const list = useRef<HTMLUListElement>(null);
  // The marked line (the last added, or ↑/↓) is kept in view in a long basket.
  useEffect(() => {
    list.current?.querySelector('[aria-current="true"]')?.scrollIntoView({ block: 'nearest' });
  }, [b.selected, b.lines.length]);
  const seatProblems = [...b.problems.seats.values()].flat();

  return (
    <section className="basket" aria-label="Basket" data-testid="basket">
      {empty && <p className="hint basket-empty">The basket is empty: pick seats, or add concessions.</p>}
      <ul className="basket-lines" ref={list}>
        {pricedTickets
          ? pricedTickets.map((l) => (
              <li key={l.ticketType} className="basket-line" data-testid="basket-line">
                <span className="bl-what">
                  {l.quantity} × {l.ticketType} <span className="bl-seats">{l.seats.join(' ')}</span>
                </span>
                <span className="bl-amount">{formatNaira(l.amountKobo)}</span>
              </li>
            ))
          : groupTypes(tickets).map((g) => (
              <li key={g.type} className="basket-line" data-testid="basket-line">
                <span className="bl-what">
                  {g.seats.length} × {g.type} <span className="bl-seats">{g.seats.join(' ')}</span>
                </span>
                <span className="bl-amount">…</span>
              </li>
            ))}
        {seatProblems.length > 0 && <LineProblems messages={seatProblems} />}
        {b.priced && b.priced.amounts.bookingFeeKobo > 0 && (
          <li className="basket-line bl-fee">
            <span className="bl-what">Booking fee</span>
            <span className="bl-amount">{formatNaira(b.priced.amounts.bookingFeeKobo)}</span>
          </li>
        )}
        {b.lines.map((l, i) => {
          const priced = pricedConcessions[i];
          const choices = Object.values(l.choices)
            .map((c) => nameOf(c) ?? c)
            .join(', ');
          const problems = b.problems.lines.get(i);
          return (
            <li
              key={`${l.code}-${i}`}
              className="basket-line"
              data-testid="basket-line"
              aria-current={i === b.selected ? 'true' : undefined}
              onClick={() => b.select(i)}
            >
              <span className="bl-what">
                {l.quantity} × {nameOf(l.code) ?? l.code}
                {choices && <span className="bl-choice"> ({choices})</span>}
              </span>
              <span className="bl-amount">{priced ? formatNaira(priced.amountKobo) : '…'}</span>
              {problems && <LineProblems messages={problems} />}
            </li>
          );
        })}
      </ul>
      {b.problems.basket.length > 0 && <LineProblems messages={b.problems.basket} />}
      {b.pricingError && (
        <p className="field-error" role="alert">
          The basket could not be priced: {b.pricingError}
        </p>
      )}
    </section>
  );
}

function LineProblems({ messages }: { messages: string[] }) {
  return (
    <li className="bl-problems" role="alert">
      {messages.map((m) => (
        <span key={m}>{m}</span>
      ))}
    </li>
  );
}

function groupTypes(tickets: { seat: string; type: string }[]): { type: string; seats: string[] }[] {
  const groups = new Map<string, string[]>();
  for (const t of tickets) groups.set(t.type, [...(groups.get(t.type) ?? []), t.seat]);
  return [...groups].map(([type, seats]) => ({ type, seats }));
}

/** How the customer pays: the three tenders, and the cash typed for cash or split. */
export const TenderBox = forwardRef<HTMLInputElement>(function TenderBox(_props, cashRef) {
  const b = useBasket(
    useShallow((s) => ({
      tender: s.tender,
      missing: s.tenderMissing,
      problems: s.problems.tender,
      setKind: s.setTenderKind,
      setCash: s.setCash,
    })),
  );
  const kind = b.tender.kind;
  const focusCash = () => requestAnimationFrame(() => (cashRef as React.RefObject<HTMLInputElement>).current?.focus());
  return (
    <fieldset className="tender" data-testid="tender">
      <legend>Paid by</legend>
      <div
        className="segmented"
        role="radiogroup"
        aria-label="Paid by"
        onKeyDown={(e) => {
          const t = TENDERS.find((x) => x.letter === e.key.toLowerCase());
          if (!t || e.altKey || e.ctrlKey || e.metaKey) return;
          e.preventDefault();
          b.setKind(t.kind);
          if (t.kind !== 'card') focusCash();
        }}
      >
        {TENDERS.map((t) => (
          <button
            key={t.kind}
            type="button"
            role="radio"
            aria-checked={t.kind === kind}
            aria-pressed={t.kind === kind}
            onClick={() => {
              b.setKind(t.kind);
              if (t.kind !== 'card') focusCash();
            }}
          >
            {t.label} <kbd aria-hidden="true">{t.key}</kbd>
          </button>
        ))}
      </div>
      {kind !== 'card' && (
        <label className="tender-cash">
          <span>{kind === 'cash' ? 'Cash tendered' : 'Cash part (the rest by card)'}</span>
          <span className="money-input">
            <span aria-hidden="true">₦</span>
            <input
              ref={cashRef}
              name="cash"
              inputMode="decimal"
              autoComplete="off"
              value={b.tender.cash}
              placeholder={kind === 'cash' ? 'what the customer hands over' : 'e.g. 5000'}
              aria-invalid={b.problems.length > 0 ? true : undefined}
              onChange={(e) => b.setCash(e.target.value)}
            />
          </span>
        </label>
      )}
      {b.problems.map((m) => (
        <p key={m} className="field-error" role="alert">
          {m}
        </p>
      ))}
    </fieldset>
  );
});

/** The total and what goes where: a split's cash part and card part; cash, the change (big). */
export function BasketTotal({ empty }: { empty: string }) {
  const b = useBasket(useShallow((s) => ({ priced: s.priced, tender: s.pricedTender, missing: s.tenderMissing })));
  const a = b.priced?.amounts ?? null;
  const t = b.tender;
  // Cash: the total and the change, nothing else (what was tendered is in its box).
  const change = a !== null && t?.kind === 'cash';
  return (
    <div className="sale-total basket-total" data-testid="sale-total" data-change={change ? 'true' : undefined}>
      {!change && (
        <div className="sale-breakdown">
          {!a
            ? empty
            : t?.kind === 'split'
              ? [`${formatNaira(a.cashKobo)} cash`, `${formatNaira(a.cardKobo)} by card`].map((x) => (
                  <span key={x}>{x}</span>
                ))
              : (b.missing ?? 'All by card')}
        </div>
      )}
      <div className="sale-total-line">
        <span>Total</span>
        <strong data-testid="total-amount">{a ? formatNaira(a.totalKobo) : '—'}</strong>
      </div>
      {change && (
        <div className="basket-change" data-testid="change">
          <span>Change</span>
          <strong data-testid="change-amount">{formatNaira(a.changeKobo)}</strong>
        </div>
      )}
    </div>
  );
}
