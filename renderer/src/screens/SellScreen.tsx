// Sell tickets: the ticket form with its live total and one Charge action, then the payment view;
// beside it the terminal in use and, in the Demo profile, the simulated terminal.
import { useEffect, useMemo, useRef } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { SubmitForm } from '../components/SubmitForm';
import { DemoTerminalPanel } from '../components/DemoTerminalPanel';
import { Field } from '../components/Field';
import { TERMINAL_CHANGE_ID, TerminalPicker } from '../components/TerminalPicker';
import { useApp } from '../stores/app-store';
import { checkDraft, type DraftKey } from '../stores/sale-form';
import { useSale } from '../stores/sale-store';
import { useTerminal } from '../stores/terminal-store';
import { PaymentPanel } from './PaymentPanel';
import { formatNaira, showDateText } from '../format';
import { Banner } from '../components/Banner';
import { useProgramme } from '../stores/programme-store';
import { ChargeRow, chargeState, SaleTotal, StillOpenOrders, useNoShift } from './sell/ChargeParts';
import { ShowPicker, SWITCH_KEY, SwitchButton } from './sell/ShowPicker';
import { ChargeQueue } from './sell/ChargeQueue';
import '../sell-screen.css';

/** The programme's next shows are re-read this often, so shows past their grace leave the list. */
const NEXT_SHOWS_REFRESH_MS = 60_000;

/** The sn sales go to: the live link's; what sale.defaults said only until the link's state is known. */
function useChargeSn(): string | null {
  const linkSn = useTerminal((t) => (t.state ? t.state.sn : undefined));
  const defaultSn = useSale((s) => s.defaults?.sn ?? null);
  return linkSn === undefined ? defaultSn : linkSn;
}

export function SellScreen() {
  const profile = useApp((a) => a.status?.profile);
  const { paymentOpen, hasOrder, loadDefaults, defaults } = useSale(
    useShallow((s) => ({
      paymentOpen: s.paymentOpen,
      hasOrder: s.order !== null,
      loadDefaults: s.loadDefaults,
      defaults: s.defaults,
    })),
  );
  const sn = useChargeSn();
  const linkKnown = useTerminal((t) => t.state !== null);
  const mode = useSale((s) => s.mode);
  const shows = useProgramme((p) => p.next?.shows ?? null);
  const loadNext = useProgramme((p) => p.loadNext);

  useEffect(() => {
    void loadNext();
    const t = setInterval(() => void loadNext(), NEXT_SHOWS_REFRESH_MS);
    return () => clearInterval(t);
  }, [loadNext, profile]);

  // F2 switches between picking a show of the programme and typing one by hand.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== SWITCH_KEY || e.altKey || e.ctrlKey || e.metaKey || e.defaultPrevented) return;
      const st = useSale.getState();
      if (st.paymentOpen) return;
      e.preventDefault();
      st.setMode(st.mode === 'programme' ? 'hand' : 'programme');
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  useEffect(() => {
    void loadDefaults();
  }, [loadDefaults, profile]);

  // After a reload, a restart or a window reopened: every order main still follows comes back.
  const loadOpen = useSale((s) => s.loadOpen);
  useEffect(() => {
    void loadOpen().catch(() => {});
  }, [loadOpen, profile]);

  // Esc backs out from anywhere on the screen but the terminal boxes (they have their own fields).
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
      if (e.target instanceof Element && e.target.closest('.sell-side')) return;
      const st = useSale.getState();
      e.preventDefault();
      if (st.paymentOpen) st.closePayment();
      else st.clear();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const showPayment = paymentOpen && hasOrder;
  return (
    <section aria-labelledby="screen-title" className="screen checkout sell-screen">
      <h1 id="screen-title" tabIndex={-1}>
        Sell tickets
      </h1>
      <div className="sell-layout">
        <div className="sell-main">
          <StillOpenOrders />
          {showPayment ? (
            <PaymentPanel />
          ) : mode === 'programme' && shows && shows.length > 0 ? (
            <ShowPicker shows={shows} sn={sn} />
          ) : (
            <SaleForm sn={sn} programme={shows === null ? 'loading' : shows.length > 0 ? 'has-shows' : 'none'} />
          )}
        </div>
        <aside className="sell-side" aria-label="Terminal">
          <TerminalPicker fallbackSn={linkKnown ? null : (defaults?.sn ?? null)} />
          <ChargeQueue />
          {profile === 'demo' && <DemoTerminalPanel />}
        </aside>
      </div>
    </section>
  );
}

const LABELS: Record<DraftKey, string> = {
  filmName: 'Film name',
  filmTitle: 'Film title (on the ticket)',
  showDate: 'Show date',
  showTime: 'Show time',
  seats: 'Seats',
  tickets: 'Number of tickets',
  price: 'Price per ticket (₦)',
  fee: 'Booking fee per ticket (₦)',
};

function SaleForm({ sn, programme }: { sn: string | null; programme: 'loading' | 'has-shows' | 'none' }) {
  const s = useSale(
    useShallow((st) => ({
      draft: st.draft,
      touched: st.touched,
      submitted: st.submitted,
      serverErrors: st.serverErrors,
      message: st.message,
      busy: st.busy,
      cleared: st.cleared,
      films: st.defaults?.films ?? null,
      today: st.defaults?.today ?? null,
      defaultsError: st.defaultsError,
      open: st.open,
      edit: st.edit,
      touch: st.touch,
      charge: st.charge,
      undoClear: st.undoClear,
      loadDefaults: st.loadDefaults,
    })),
  );
  const inputs = useRef<Partial<Record<DraftKey, HTMLInputElement | null>>>({});
  const check = useMemo(() => checkDraft(s.draft, sn), [s.draft, sn]);
  const noShift = useNoShift();

  const { terminalBusy, disabledReason, chargeLabel, chargeWhere } = chargeState(sn, s.open, check.totalKobo, noShift);

  // A field left empty is only flagged once the cashier tries to charge; a field typed wrong, as soon as they leave it.
  const errorFor = (k: DraftKey): string | undefined =>
    s.serverErrors[k] ?? (s.submitted || (s.touched[k] && s.draft[k].trim() !== '') ? check.errors[k] : undefined);
  const snError = s.serverErrors.sn ?? (s.submitted ? check.errors.sn : undefined);

  const focusField = (k: DraftKey | 'sn' | null) => {
    if (!k) return;
    if (k === 'sn') document.getElementById(TERMINAL_CHANGE_ID)?.focus();
    else inputs.current[k]?.focus();
  };

  const charge = async (besideWaiting?: string) => {
    if (noShift || (terminalBusy && besideWaiting !== terminalBusy.outOrderNo)) return;
    focusField(await s.charge(sn, besideWaiting));
  };

  // Back on the form after Esc (or Hide): the first field is ready for typing.
  useEffect(() => {
    if (document.activeElement === document.body) inputs.current.filmName?.focus();
  }, []);

  const input = (k: DraftKey, extra: React.InputHTMLAttributes<HTMLInputElement> = {}, prefix?: string) => {
    const error = errorFor(k);
    return (
      <Field label={LABELS[k]} error={error} hint={hintFor(k)}>
        {(id, d) => {
          const el = (
            <input
              id={id}
              name={k}
              aria-describedby={d}
              aria-invalid={error ? true : undefined}
              autoComplete="off"
              ref={(node) => {
                inputs.current[k] = node;
              }}
              value={s.draft[k]}
              onChange={(e) => s.edit(k, e.target.value)}
              onBlur={() => s.touch(k)}
              {...extra}
            />
          );
          return prefix ? (
            <div className="money-input">
              <span aria-hidden="true">{prefix}</span>
              {el}
            </div>
          ) : (
            el
          );
        }}
      </Field>
    );
  };

  const hintFor = (k: DraftKey): string | undefined => {
    if (k === 'filmName') return s.films?.length ? HINTS.filmName : undefined;
    if (k === 'showDate') {
      const text = showDateText(s.draft.showDate);
      if (text === s.draft.showDate) return undefined;
      return s.draft.showDate === s.today ? `Today, ${text}` : text;
    }
    return HINTS[k];
  };

  const total = check.totalKobo;
  const tickets = Number(s.draft.tickets);

  return (
    <SubmitForm
      className="sale-form card"
      aria-labelledby="sale-form-title"
      onSubmit={() => void charge()}
      onKeyDown={(e) => {
        // Enter charges from any field (buttons keep their own Enter).
        if (e.key !== 'Enter' || e.shiftKey || e.altKey || e.ctrlKey || e.metaKey || e.nativeEvent.isComposing) return;
        if (!(e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement)) return;
        e.preventDefault();
        void charge();
      }}
    >
      <FormHead
        programme={programme}
        cleared={s.cleared !== null}
        onUndo={s.undoClear}
        defaultsError={s.defaultsError}
        onRetry={() => void s.loadDefaults()}
      />

      <div className="sale-grid">
        {input('filmName', { list: 'known-films', spellCheck: false, ...({ 'data-autofocus': true } as object) })}
        {input('filmTitle')}
        {input('showDate', { inputMode: 'numeric', placeholder: '2025-03-31' })}
        {input('showTime', { inputMode: 'numeric', placeholder: '19:30' })}
        {input('seats', { spellCheck: false, className: 'seats-input', placeholder: 'F7,F8' })}
        {input('tickets', { inputMode: 'numeric' })}
        {input('price', { inputMode: 'decimal', placeholder: '2500' }, '₦')}
        {input('fee', { inputMode: 'decimal', placeholder: '0' }, '₦')}
      </div>
      <KnownFilms films={s.films} />

      <ChargeRow
        message={s.message}
        snError={snError}
        disabledReason={disabledReason}
        busy={s.busy}
        chargeLabel={chargeLabel}
        chargeWhere={chargeWhere}
        terminalBusy={terminalBusy}
        onChargeBeside={(no) => void charge(no)}
        total={
          <SaleTotal
            amounts={
              check.ticketsKobo !== null && check.bookingFeeKobo !== null && total !== null
                ? { tickets, ticketsKobo: check.ticketsKobo, bookingFeeKobo: check.bookingFeeKobo, totalKobo: total }
                : null
            }
            empty="Enter tickets and price to see the total"
          />
        }
      >
        <kbd>Enter</kbd> charges from any box · <kbd>Esc</kbd> clears the form
        {programme === 'has-shows' ? (
          <>
            {' '}
            · <kbd>{SWITCH_KEY}</kbd> pick from the programme
          </>
        ) : null}
      </ChargeRow>
    </SubmitForm>
  );
}

const HINTS: Partial<Record<DraftKey, string>> = {
  filmName: 'Pick a film sold before to fill its title and price.',
  seats: 'Separate with commas, e.g. F7,F8',
  tickets: 'Follows the seats you type.',
};

/** The form's title (and the switch to the programme), why there is no programme, and its notices. */
function FormHead(p: {
  programme: 'loading' | 'has-shows' | 'none';
  cleared: boolean;
  onUndo: () => void;
  defaultsError: string | null;
  onRetry: () => void;
}) {
  const { programme, cleared, onUndo, defaultsError, onRetry } = p;
  return (
    <>
      <div className="show-list-head">
        <h2 id="sale-form-title" className={programme === 'has-shows' ? undefined : 'sr-only'}>
          A show typed by hand
        </h2>
        {programme === 'has-shows' && <SwitchButton to="programme" />}
      </div>
      {programme === 'none' && (
        <p className="hint programme-hint">
          No shows to come in the programme: type the show. (A manager imports the programme under Settings →
          Programme.)
        </p>
      )}
      {cleared && (
        <Banner as="div" tone="info" role="status">
          <span>Form cleared.</span>
          <button type="button" onClick={onUndo}>
            Undo
          </button>
        </Banner>
      )}
      {defaultsError && (
        <Banner as="div" tone="warn" role="alert">
          <span>Could not load the films and today's date: {defaultsError}</span>
          <button type="button" onClick={onRetry}>
            Try again
          </button>
        </Banner>
      )}
    </>
  );
}

/** The films main remembers, offered as the film name is typed. */
function KnownFilms({
  films,
}: {
  films: readonly { filmName: string; filmTitle: string; priceKobo: number }[] | null;
}) {
  return (
    <datalist id="known-films">
      {(films ?? []).map((f) => (
        <option key={f.filmName} value={f.filmName}>
          {`${f.filmTitle} · ${formatNaira(f.priceKobo)}`}
        </option>
      ))}
    </datalist>
  );
}
