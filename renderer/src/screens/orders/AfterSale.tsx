// After the sale, on a paid sale's detail (docs/refunds.md): Cancel tickets… (F8) and Exchange… (F9),
// the engine's answer in big type (the cash to give back from the drawer, the card refund owed),
// the sale's links (exchanged from / to, its seats with the cancelled ones struck through) and its
// refunds, each card refund owed with "Record returned…".
import { useEffect, useRef } from 'react';
import { soldBasketOf } from '../../../../shared/basket-sale';
import type { OrderView } from '../../../../shared/orders';
import type { RefundView } from '../../../../shared/refunds';
import { Banner } from '../../components/Banner';
import { useOnChange } from '../../components/useOnChange';
import { formatNaira } from '../../format';
import { useOrders } from '../../stores/orders-store';
import { useRefunds, type UndoAnswer } from '../../stores/refunds-store';
import { useShift } from '../../stores/shift-store';
import { useApp } from '../../stores/app-store';
import { useSale } from '../../stores/sale-store';
import { CancelPanel } from './CancelPanel';
import { ExchangePanel } from './ExchangePanel';
import { RefundList } from './RefundList';
import { ShowSales } from './ShowSales';
import '../../after-sale.css';

export const CANCEL_KEY = 'F8';
export const EXCHANGE_KEY = 'F9';

export function AfterSale({ order }: { order: OrderView }) {
  const r = useRefunds();
  const open = useOrders((s) => s.open);
  const cashier = useShift((s) => s.current?.cashier ?? '');
  const seats = soldBasketOf(order).lines.flatMap((l) => (l.kind === 'tickets' ? l.seats : []));
  const gone = new Set(r.links?.cancelledSeats ?? []);
  const hasTickets = seats.some((s) => !gone.has(s));
  const canUndo = order.state === 'paid' && (hasTickets || soldBasketOf(order).lines.some((l) => l.kind !== 'tickets'));

  // The engine's answer comes into view, and the focus with it (Tab then goes on from there).
  const answerRef = useRef<HTMLDivElement>(null);
  useOnChange(() => {
    if (!r.answer) return;
    const el = answerRef.current;
    const scroller = el?.closest('.content');
    // The screen's own scroller only (scrollIntoView would move the whole window too).
    if (el && scroller)
      scroller.scrollTop += el.getBoundingClientRect().top - scroller.getBoundingClientRect().top - 12;
    el?.focus({ preventScroll: true });
  }, [r.answer]);
  // Read again when another sale opens.
  useOnChange(() => void r.load(order.id), [order.id]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.altKey || e.ctrlKey || e.metaKey || e.defaultPrevented || !canUndo) return;
      const s = useRefunds.getState();
      if (s.panel !== null) return;
      const panel = e.key === CANCEL_KEY ? 'cancel' : e.key === EXCHANGE_KEY && hasTickets ? 'exchange' : null;
      if (!panel) return;
      e.preventDefault();
      s.openPanel(panel);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [canUndo, hasTickets]);

  const links = r.links;
  return (
    <div className="card after-sale" role="region" aria-labelledby="after-sale-title">
      <h2 id="after-sale-title">Cancel, exchange, refunds</h2>
      {r.answer && (
        <div ref={answerRef} tabIndex={-1} className="undo-answer-wrap">
          <UndoAnswerBanner answer={r.answer} />
        </div>
      )}
      {links && (links.exchangedFrom || links.exchangedTo.length > 0 || links.cancelledSeats.length > 0) && (
        <dl className="detail-facts" data-testid="sale-links">
          {links.exchangedFrom && (
            <div>
              <dt>Exchanged from</dt>
              <dd>
                <button type="button" className="link-button" onClick={() => void open(links.exchangedFrom!.orderId)}>
                  sale {links.exchangedFrom.outOrderNo}
                </button>
              </dd>
            </div>
          )}
          {links.exchangedTo.length > 0 && (
            <div>
              <dt>Exchanged to</dt>
              <dd>
                {links.exchangedTo.map((t) => (
                  <button key={t.orderId} type="button" className="link-button" onClick={() => void open(t.orderId)}>
                    sale {t.outOrderNo}
                  </button>
                ))}
              </dd>
            </div>
          )}
          {seats.length > 0 && links.cancelledSeats.length > 0 && (
            <div>
              <dt>Seats now</dt>
              <dd data-testid="sale-seats-now">
                {seats.map((s) =>
                  gone.has(s) ? (
                    <s key={s} className="seat-gone" title="Cancelled or moved">
                      {s}
                    </s>
                  ) : (
                    <span key={s} className="seat-valid">
                      {s}
                    </span>
                  ),
                )}
              </dd>
            </div>
          )}
        </dl>
      )}
      {r.loadError && (
        <Banner tone="bad" role="alert">
          The refunds of this sale cannot be read: {r.loadError}
        </Banner>
      )}
      {canUndo && r.panel === null && (
        <div className="actions">
          <button type="button" data-testid="open-cancel" onClick={() => r.openPanel('cancel')}>
            Cancel tickets… <kbd aria-hidden="true">{CANCEL_KEY}</kbd>
          </button>
          {hasTickets && (
            <button type="button" data-testid="open-exchange" onClick={() => r.openPanel('exchange')}>
              Exchange… <kbd aria-hidden="true">{EXCHANGE_KEY}</kbd>
            </button>
          )}
        </div>
      )}
      {r.panel === 'cancel' && <CancelPanel order={order} cashier={cashier} />}
      {r.panel === 'exchange' && <ExchangePanel order={order} cashier={cashier} />}
      <RefundList refunds={r.refunds} cashier={cashier} />
      {canUndo && r.panel === null && <ShowSales order={order} />}
    </div>
  );
}

/** One line per refund the engine made, in big type: what the cashier does now. */
export function refundInstruction(x: RefundView): string {
  return x.tender === 'cash'
    ? `Give back ${formatNaira(x.amountKobo)} in cash from the drawer`
    : `${formatNaira(x.amountKobo)} owed to the card: record how it was returned`;
}

function UndoAnswerBanner({ answer }: { answer: UndoAnswer }) {
  const to = answer.to;
  return (
    // Card money still owed is not done yet: it stays on the counter's and the Hub's lists until recorded.
    <Banner
      tone={
        answer.refunds.some((x) => x.tender === 'card' && !x.returned) || (to && to.state !== 'paid') ? 'warn' : 'good'
      }
      role="status"
      as="div"
      className="undo-answer"
      data-testid="undo-answer"
    >
      <p className="undo-answer-head">{answer.kind === 'cancel' ? 'Cancelled.' : 'Exchanged.'}</p>
      {to && <NewSaleLines to={to} />}
      {answer.refunds.map((x) => (
        <p key={x.id} className="undo-answer-big" data-testid={`undo-answer-${x.tender}`}>
          {x.returned && x.tender === 'card'
            ? `${formatNaira(x.amountKobo)} to the card: returned`
            : refundInstruction(x)}
        </p>
      ))}
      {answer.refunds.length === 0 && !to && <p>Nothing to give back.</p>}
    </Banner>
  );
}

/** An exchange's new sale: its price, the credit, the difference paid (or to pay on the terminal) and the change, as the engine worked them out. */
function NewSaleLines({ to }: { to: OrderView }) {
  const open = useOrders((s) => s.open);
  const showOrder = useSale((s) => s.showOrder);
  const go = useApp((a) => a.go);
  const a = to.basket?.amounts;
  const cash = to.basket?.tender.kind === 'cash';
  const due = a ? (cash ? a.cashKobo : a.cardKobo) : to.amountKobo;
  return (
    <>
      <p data-testid="undo-answer-new-sale">
        New sale{' '}
        <button type="button" className="link-button" onClick={() => void open(to.id)}>
          {to.outOrderNo}
        </button>
        {a && a.creditKobo !== undefined
          ? `: ${formatNaira(a.totalKobo)}, less the credit of the old tickets ${formatNaira(a.creditKobo)}.`
          : '.'}
      </p>
      {due > 0 && to.state === 'paid' && (
        <p className="undo-answer-big" data-testid="undo-answer-paid">
          {formatNaira(due)} paid {cash ? 'in cash' : 'by card'}
        </p>
      )}
      {a && a.changeKobo > 0 && (
        <p className="undo-answer-big" data-testid="undo-answer-change">
          Give {formatNaira(a.changeKobo)} change
        </p>
      )}
      {to.state !== 'paid' && (
        <p className="undo-answer-big" data-testid="undo-answer-due">
          {formatNaira(due)} to pay by card on the terminal: the old tickets stay valid until it is paid{' '}
          <button type="button" onClick={() => (showOrder(to), go('sell'))}>
            Show the payment screen
          </button>
        </p>
      )}
    </>
  );
}
