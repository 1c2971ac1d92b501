// A basket of concessions only, no show (F4 on the list of shows): the pad, the basket, Paid by
// (F6 card, F7 cash, F8 split) and Charge, as beside a picked show. Esc goes back to the shows
// (the Sell screen's Esc: `clear`).
import { useRef } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { TERMINAL_CHANGE_ID } from '../../components/TerminalPicker';
import { basketOf } from '../../stores/basket-keys';
import { useBasket } from '../../stores/basket-store';
import { useSale } from '../../stores/sale-store';
import { BasketLines, BasketTotal, TenderBox } from './BasketPanel';
import { basketChargeWords, useBasketKeys, useBasketPricing } from './basket-ui';
import { ChargeRow, chargeState, useNoShift } from './ChargeParts';
import { ConcessionsPad, PAD_KEY } from './ConcessionsPad';

const NO_TICKETS = { ok: true as const, types: [] };

export function ConcessionsSale({ sn }: { sn: string | null }) {
  const s = useSale(
    useShallow((st) => ({
      errors: st.pickErrors,
      message: st.message,
      busy: st.busy,
      open: st.open,
      chargeBasket: st.chargeBasket,
      unpick: st.unpick,
    })),
  );
  // Read so the screen follows the basket (Charge's words are worked out from it).
  const b = useBasket(
    useShallow((st) => ({ lines: st.lines, tender: st.tender, priced: st.priced, problems: st.problems })),
  );
  const padRef = useRef<HTMLInputElement>(null);
  const cashRef = useRef<HTMLInputElement>(null);
  const noShift = useNoShift();
  const cashOnly = b.tender.kind === 'cash';
  const state = chargeState(
    cashOnly ? 'cash' : sn,
    cashOnly ? [] : s.open,
    b.priced?.amounts.totalKobo ?? null,
    noShift,
  );
  const words = basketChargeWords(false, NO_TICKETS, state);
  useBasketPricing(null, null, padRef);
  useBasketKeys(null, padRef, cashRef);

  const charge = async (besideWaiting?: string) => {
    if (noShift || (state.terminalBusy && !cashOnly && besideWaiting !== state.terminalBusy.outOrderNo)) return;
    const tender = useBasket.getState().tenderToSend();
    if (!tender) return cashRef.current?.focus();
    if (!b.priced) return;
    const field = await s.chargeBasket(basketOf(null, b.lines, tender), sn, besideWaiting);
    if (field === 'sn') document.getElementById(TERMINAL_CHANGE_ID)?.focus();
  };

  return (
    <form
      className="card show-sale basket-sale concessions-sale"
      aria-labelledby="concessions-sale-title"
      onSubmit={(e) => {
        e.preventDefault();
        void charge();
      }}
    >
      <div className="show-picked">
        <div className="show-film">
          <h2 id="concessions-sale-title">Concessions only</h2>
          <span className="show-meta">No tickets: popcorn, drinks, snacks and combos</span>
        </div>
        <button type="button" onClick={s.unpick}>
          Back to the shows <kbd aria-hidden="true">Esc</kbd>
        </button>
      </div>
      <div className="concessions-grid">
        <ConcessionsPad ref={padRef} roomy />
        <div className="basket-side">
          <BasketLines tickets={[]} />
          <TenderBox ref={cashRef} />
        </div>
      </div>
      <ChargeRow
        message={s.message}
        snError={s.errors.sn}
        disabledReason={state.disabledReason ?? (b.lines.length === 0 ? 'Add concessions on the pad.' : words.reason)}
        busy={s.busy}
        chargeLabel={words.label.text}
        chargeWhere={words.label.where}
        terminalBusy={cashOnly ? null : state.terminalBusy}
        onChargeBeside={(no) => void charge(no)}
        total={<BasketTotal empty="Add concessions on the pad" />}
      >
        <kbd>Enter</kbd> charges · <kbd>{PAD_KEY}</kbd> the pad, <kbd>+</kbd> <kbd>-</kbd> quantity · <kbd>F6</kbd> card{' '}
        <kbd>F7</kbd> cash <kbd>F8</kbd> split · <kbd>Esc</kbd> back to the shows
      </ChargeRow>
    </form>
  );
}
