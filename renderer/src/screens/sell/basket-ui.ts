// The basket's keys across the Sell screen (F3 the ticket types, F4 the pad, F6/F7/F8 the tender)
// and what the Charge button says for a basket and why it is off, in cashier words.
import { useEffect, type RefObject } from 'react';
import type { ShowView } from '../../../../shared/programme';
import type { TicketsPart, TypeKeys } from '../../stores/basket-keys';
import { useBasket } from '../../stores/basket-store';
import { formatNaira } from '../../format';
import { TENDERS } from './BasketPanel';
import { PAD_KEY } from './ConcessionsPad';
import { TYPES_KEY } from './SeatTypes';

type InputRef = RefObject<HTMLInputElement | null>;

/**
 * A new show (or concessions only), a new basket (the catalogue read again: it may have changed)
 * and its first box ready (the seats, or the pad);
 * then the engine prices the basket again whenever its seats, types, lines or tender change.
 */
export function useBasketPricing(show: ShowView | null, tickets: TicketsPart | null, firstRef: InputRef): void {
  const showId = show?.id ?? null;
  useEffect(() => {
    useBasket.getState().reset();
    void useBasket.getState().loadCatalogue();
    firstRef.current?.focus();
  }, [showId, firstRef]);
  const lines = useBasket((b) => b.lines);
  const tender = useBasket((b) => b.tender);
  const key = tickets ? `${tickets.seats.join(',')}|${tickets.types.join(',')}` : '';
  useEffect(() => {
    void useBasket.getState().price(tickets);
    // `key` stands for the tickets' seats and types.
  }, [key, lines, tender, showId]);
}

/** F3 the ticket types, F4 the pad, F6/F7/F8 the tender (cash and split: the cash box). */
export function useBasketKeys(typesRef: InputRef | null, padRef: InputRef, cashRef: InputRef): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.altKey || e.ctrlKey || e.metaKey || e.defaultPrevented) return;
      const tender = TENDERS.find((t) => t.key === e.key);
      if (e.key === TYPES_KEY && typesRef?.current) typesRef.current.focus();
      else if (e.key === PAD_KEY && padRef.current) padRef.current.focus();
      else if (tender) {
        useBasket.getState().setTenderKind(tender.kind);
        if (tender.kind !== 'card') requestAnimationFrame(() => cashRef.current?.focus());
      } else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [typesRef, padRef, cashRef]);
}

/**
 * The Charge button's words and why it is off. `plain`: one ticket type by card, said as before
 * (`single`: chargeState's label); a basket: "Charge ₦… by card", "Take ₦… cash".
 */
export function basketChargeWords(
  plain: boolean,
  typed: TypeKeys,
  single: { chargeLabel: string; chargeWhere: string },
): { reason: string | null; label: { text: string; where: string } } {
  const b = useBasket.getState();
  if (plain) return { reason: null, label: { text: single.chargeLabel, where: single.chargeWhere } };
  const a = b.priced?.amounts;
  const reason = !typed.ok
    ? `Ticket types: ${typed.message}`
    : b.tenderMissing
      ? `${b.tenderMissing}, then Enter.`
      : (b.problems.tender[0] ??
        (b.priced ? null : b.pricingError ? 'The basket could not be priced.' : 'Fix the basket’s lines first.'));
  const kind = b.tender.kind;
  const label =
    kind === 'cash'
      ? { text: `Take ${a ? formatNaira(a.totalKobo) : ''} cash`, where: '' }
      : kind === 'split'
        ? { text: `Charge ${a && b.pricedTender ? formatNaira(a.cardKobo) : ''} by card`, where: single.chargeWhere }
        : { text: `Charge ${a ? formatNaira(a.totalKobo) : ''}`, where: single.chargeWhere };
  return { reason, label };
}
