// What a cashier can undo after a sale, as the checkout offers it (docs/refunds.md): cancel
// (undo-cancel.ts), the refunds owed (the list, one sale's refunds and links) and recording how a
// card refund owed was returned (its 'refund.returned' event to the Hub in the same transaction).
import { AppError, issueFields, validationError } from '../../shared/errors';
import {
  MARK_RETURNED_INVALID,
  MarkReturnedSchema,
  type CancelRequest,
  type RefundView,
  type SaleLinks,
} from '../../shared/refunds';
import { clipText } from '../journal-sink';
import { DAY_MS, LAGOS_OFFSET_MS } from '../../shared/time';
import { cancelSale, type CancelDeps } from './undo-cancel';
import { UndoStore } from './undo-store';
import type { z } from 'zod';

export type { UndoDeps } from './undo-cancel';
export type { ApprovalCodes, ApprovalWhat } from './undo-approval';

/** At most this many returned refunds follow the ones still owed in the list. */
const RETURNED_SHOWN = 100;

export type UndoServiceDeps = Omit<CancelDeps, 'store'>;

/** The start of the Lagos day of `at`. */
const lagosDayStartOf = (at: number) => Math.floor((at + LAGOS_OFFSET_MS) / DAY_MS) * DAY_MS - LAGOS_OFFSET_MS;

export function createUndoService(deps: UndoServiceDeps) {
  const store = new UndoStore(deps.db);
  const d: CancelDeps = { ...deps, store };
  const { run } = deps;

  function list(): { owed: number; items: RefundView[] } {
    const owed = store.owedList();
    // Card returned and cash paid out today, newest first, after those still owed (oldest first).
    const returned = store.returnedSince(lagosDayStartOf(deps.now()), RETURNED_SHOWN);
    return { owed: owed.length, items: [...owed, ...returned] };
  }

  return {
    /** Cancels seats or concession lines of a paid sale (approval checked here); the refunds owed it made. */
    cancel: (req: CancelRequest) => cancelSale(d, req),

    list,

    /** One sale's refunds, and its links (exchanges land with the exchange engine). */
    ofOrder(orderId: number): { refunds: RefundView[]; links: SaleLinks } {
      run.record(orderId);
      return {
        refunds: store.ofOrder(orderId),
        links: { exchangedFrom: null, exchangedTo: [], cancelledSeats: store.cancelledSeats(orderId) },
      };
    },

    /** Records how a card refund owed was returned (how, the reference, who); once. */
    markReturned(input: z.input<typeof MarkReturnedSchema>): RefundView {
      const parsed = MarkReturnedSchema.safeParse(input);
      if (!parsed.success) throw validationError(issueFields(parsed.error.issues), MARK_RETURNED_INVALID);
      const a = parsed.data;
      const r = deps.db
        .transaction((): RefundView => {
          const cur = store.get(a.refundId);
          if (!cur) throw new AppError('NOT_FOUND', `There is no refund ${a.refundId} on this counter.`);
          if (cur.returned)
            throw new AppError(
              'CONFLICT',
              cur.tender === 'cash'
                ? `Refund ${cur.refundNo} was paid in cash from the drawer.`
                : `Refund ${cur.refundNo} was already recorded as returned by ${cur.returned.by}.`,
            );
          const at = deps.now();
          store.markReturned(cur.id, { how: a.how, reference: a.reference, by: a.by, at });
          deps.sink.append(
            'refund.returned',
            {
              refundNo: cur.refundNo,
              reference: cur.outOrderNo,
              how: a.how,
              returnReference: clipText(a.reference, 64),
              by: clipText(a.by, 80),
            },
            at,
          );
          return store.get(cur.id)!;
        })
        .immediate();
      deps.logger.info('card refund recorded as returned', {
        refundNo: r.refundNo,
        outOrderNo: r.outOrderNo,
        how: a.how,
        by: a.by,
      });
      run.events.emit('refunds', { orderId: r.orderId });
      return r;
    },

    /** One refund owed (its slip, core/records), or null. */
    refund: (refundId: number): RefundView | null => store.get(refundId),

    /** The seats of a sale no longer valid (the seat map leaves them free). */
    cancelledSeats: (orderId: number) => store.cancelledSeats(orderId),
  };
}

export type UndoService = ReturnType<typeof createUndoService>;
