// A show picked from the programme, sold as a basket, keyboard first: the seats (typed, `b4`, or on
// the map), their ticket types (`2a1c`, F3), concessions on the pad (F4), how the customer pays
// (F6 card, F7 cash, F8 split) and Enter charges. The basket, its total and the change are always in
// view, priced by the engine. A basket of one ticket type paid by card is charged as before
// (`programme.charge`); any other goes through `sale.sellBasket`. Esc goes back to the list.
import { useMemo, useRef } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { seatList } from '../../../../shared/seat-list';
import { TERMINAL_CHANGE_ID } from '../../components/TerminalPicker';
import { useNow } from '../../components/useNow';
import { basketOf, parseTypeKeys } from '../../stores/basket-keys';
import { useBasket } from '../../stores/basket-store';
import { useSale } from '../../stores/sale-store';
import { showSaleAmounts, startedText, ticketTypeOf } from '../../stores/show-pick';
import { BasketLines, BasketTotal, TenderBox } from './BasketPanel';
import { ChargeRow, chargeState, SaleTotal, useNoShift } from './ChargeParts';
import { ConcessionsPad, PAD_KEY } from './ConcessionsPad';
import { PickedHead, SeatCheckNotes, seatConflictReason, SeatsField, SWITCH_KEY, TicketTypes } from './PickedParts';
import { basketChargeWords, useBasketKeys, useBasketPricing } from './basket-ui';
import { SeatMapPanel, useSeatPick } from './SeatMapPanel';
import { SeatTypes, TYPES_KEY } from './SeatTypes';
import '../../basket.css';

export function PickedShow({ sn }: { sn: string | null }) {
  const s = useSale(
    useShallow((st) => ({
      pick: st.pick!,
      errors: st.pickErrors,
      seatCheck: st.seatCheck,
      message: st.message,
      busy: st.busy,
      open: st.open,
      setSeats: st.setSeats,
      setTicketType: st.setTicketType,
      chargeShow: st.chargeShow,
      chargeBasket: st.chargeBasket,
      unpick: st.unpick,
      acknowledgeSeats: st.acknowledgeSeats,
    })),
  );
  const b = useBasket(
    useShallow((st) => ({
      typeKeys: st.typeKeys,
      lines: st.lines,
      tender: st.tender,
      priced: st.priced,
      pricedTender: st.pricedTender,
      problems: st.problems,
      missing: st.tenderMissing,
      pricingError: st.pricingError,
    })),
  );
  const { show } = s.pick;
  const type = ticketTypeOf(show, s.pick.ticketType);
  const seatPick = useSeatPick(s.pick);
  const seats = useMemo(() => seatList(seatPick.seatsForSale), [seatPick.seatsForSale]);
  const typed = parseTypeKeys(b.typeKeys, show, seats.length, type.name);
  const types = typed.ok ? typed.types : seats.map(() => type.name);
  // One ticket type, nothing else, by card: the sale as it always was (its own total and door).
  const plain = b.lines.length === 0 && b.tender.kind === 'card' && typed.ok && types.every((t) => t === type.name);
  const amounts = showSaleAmounts(type, seatPick.seatsForSale);
  const seatsRef = useRef<HTMLInputElement>(null);
  const typesRef = useRef<HTMLInputElement>(null);
  const padRef = useRef<HTMLInputElement>(null);
  const cashRef = useRef<HTMLInputElement>(null);
  const now = useNow(true);
  const noShift = useNoShift();
  const started = startedText(show.startsAt, now);
  const cashOnly = b.tender.kind === 'cash';
  const basketTotal = b.priced?.amounts.totalKobo ?? null;
  const state = chargeState(
    cashOnly ? 'cash' : sn,
    cashOnly ? [] : s.open,
    plain ? (amounts.tickets > 0 ? amounts.totalKobo : null) : basketTotal,
    noShift,
    plain ? (amounts.tickets > 0 ? `${amounts.tickets} ${type.name}` : type.name) : undefined,
  );
  const { terminalBusy, disabledReason } = state;

  useBasketPricing(show, typed.ok ? { show, seats, types } : null, seatsRef);
  useBasketKeys(typesRef, padRef, cashRef);

  const charge = async (besideWaiting?: string) => {
    if (noShift || (terminalBusy && besideWaiting !== terminalBusy.outOrderNo) || seatPick.problem) return;
    // With a seat map, ranges typed ("F7-F9") go to the sale spelt out.
    if (seatPick.seatsForSale !== s.pick.seats) s.setSeats(seatPick.seatsForSale);
    let field;
    if (plain) field = await s.chargeShow(sn, besideWaiting);
    else {
      const tender = useBasket.getState().tenderToSend();
      if (!typed.ok) return typesRef.current?.focus();
      if (!tender) return cashRef.current?.focus();
      if (!b.priced) return;
      field = await s.chargeBasket(basketOf({ show, seats, types }, b.lines, tender), sn, besideWaiting);
    }
    if (field === 'sn') document.getElementById(TERMINAL_CHANGE_ID)?.focus();
    else if (field) seatsRef.current?.focus();
  };

  const seatReason = seatConflictReason(s.seatCheck);
  const words = basketChargeWords(plain, typed, state);
  const reason = disabledReason ?? seatPick.problem ?? seatReason ?? words.reason;
  const label = words.label;

  return (
    <form
      className="card show-sale basket-sale"
      aria-labelledby="show-sale-title"
      onSubmit={(e) => {
        e.preventDefault();
        void charge();
      }}
    >
      <PickedHead show={show} now={now} started={started} onOther={s.unpick}>
        <TicketTypes
          show={show}
          chosen={type.name}
          onChoose={(name) => {
            s.setTicketType(name);
            seatsRef.current?.focus();
          }}
        />
      </PickedHead>
      <div className="basket-grid">
        <div className="basket-tickets">
          <div className="seats-row">
            <SeatsField
              seatsRef={seatsRef}
              seatPick={seatPick}
              hideHint={seats.length > 0 && show.ticketTypes.length > 1}
            />
            <SeatTypes ref={typesRef} show={show} seats={seats} typed={typed} types={types} />
          </div>
          <SeatMapPanel seats={seatPick} picked={seatPick.seatsForSale} onCharge={() => void charge()} />
          <SeatCheckNotes
            busy={s.busy}
            onSellAnyway={() => {
              s.acknowledgeSeats();
              void charge();
            }}
          />
        </div>
        <div className="basket-side">
          <ConcessionsPad ref={padRef} />
          <BasketLines tickets={seats.map((seat, i) => ({ seat, type: types[i] ?? type.name }))} />
          <TenderBox ref={cashRef} />
        </div>
      </div>

      <ChargeRow
        message={s.message}
        snError={s.errors.sn}
        disabledReason={reason}
        busy={s.busy}
        chargeLabel={label.text}
        chargeWhere={label.where}
        terminalBusy={cashOnly ? null : terminalBusy}
        onChargeBeside={(no) => void charge(no)}
        total={
          plain ? (
            <SaleTotal
              amounts={amounts.tickets > 0 ? amounts : null}
              ticketName={type.name}
              empty="Type the seats: one ticket per seat"
            />
          ) : (
            <BasketTotal empty="Pick seats or add concessions" />
          )
        }
      >
        <kbd>Enter</kbd> charges · <kbd>{TYPES_KEY}</kbd> types · <kbd>{PAD_KEY}</kbd> concessions (<kbd>+</kbd>/
        <kbd>-</kbd> quantity) · <kbd>F6</kbd> card <kbd>F7</kbd> cash <kbd>F8</kbd> split · <kbd>Esc</kbd> another show
        · <kbd>{SWITCH_KEY}</kbd> by hand
      </ChargeRow>
    </form>
  );
}
