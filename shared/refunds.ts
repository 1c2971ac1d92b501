// After the sale: what a cashier can undo (docs/refunds.md). A **cancel** takes tickets (seats) or
// concession lines out of a paid sale; an **exchange** moves tickets to another show or other seats;
// both need a supervisor's **approval** (the admin PIN, or a manager's one-time approval code from
// the Hub) and a **reason**. What goes back to the customer is a **refund owed**, with the tender it
// came from: cash is paid out of the drawer at once; card stays owed until someone records how it was
// **returned** (the provider has no refund call). Pure model and wire shapes; the rules run in the
// engine (core/orders/undo), below every door. zod only.
import { z } from 'zod';
import { RowId } from './contract-kit';
import { BasketTicketsSchema, TenderSchema } from './basket';
import { SEAT_LABEL_RE } from './seat-list';

// ---- reasons and approval ----

export const UNDO_REASONS = [
  'customer-request',
  'wrong-show-or-seats',
  'show-cancelled',
  'double-booking',
  'complaint',
  'other',
] as const;
export const UndoReason = z.enum(UNDO_REASONS, { error: 'Choose a reason from the list' });
export type UndoReason = z.infer<typeof UndoReason>;
export const UNDO_REASON_LABELS: Record<UndoReason, string> = {
  'customer-request': 'Customer asked',
  'wrong-show-or-seats': 'Wrong show or seats sold',
  'show-cancelled': 'Show cancelled',
  'double-booking': 'Sold twice',
  complaint: 'Complaint',
  other: 'Other (say what)',
};

/**
 * A supervisor's approval: the counter's admin PIN, or a manager's one-time approval code issued on
 * the Hub (redeemed once, for one undo; a used or unknown code is refused and audited).
 */
export const ApprovalSchema = z.union(
  [
    z.object({ pin: z.string().min(1, 'Enter the admin PIN').max(64) }).strict(),
    z
      .object({
        code: z
          .string()
          .trim()
          .toUpperCase()
          .regex(/^[A-Z0-9]{4}-?[A-Z0-9]{4}$/, 'An approval code looks like ABCD-2345'),
      })
      .strict(),
  ],
  { error: "A supervisor's approval is needed: the admin PIN or an approval code" },
);
export type Approval = z.infer<typeof ApprovalSchema>;

/** Who approved an undo, as the trace records it. */
export const ApprovedBySchema = z.object({
  how: z.enum(['pin', 'code']),
  /** "Admin PIN", or the manager who issued the code. */
  by: z.string(),
  at: z.number(),
});
export type ApprovedBy = z.infer<typeof ApprovedBySchema>;

// ---- cancel ----

const Seat = z
  .string()
  .trim()
  .toUpperCase()
  .refine((v) => SEAT_LABEL_RE.test(v), 'A seat is letters and digits only, for example F7');
const Note = z.string().trim().max(200, 'At most 200 characters').default('');
const Cashier = z.string().trim().min(1, 'Enter your name').max(80);

/** What to take out of a paid sale: some or all of its seats, some of its concession lines (by index in the basket's lines). */
export const CancelRequestSchema = z
  .object({
    orderId: RowId,
    seats: z.array(Seat).max(50).default([]),
    concessions: z
      .array(z.object({ line: z.number().int().nonnegative(), quantity: z.number().int().min(1) }).strict())
      .max(40)
      .default([]),
    reason: UndoReason,
    note: Note,
    approval: ApprovalSchema,
    cashier: Cashier,
  })
  .strict()
  .refine((r) => r.seats.length + r.concessions.length > 0, {
    path: ['seats'],
    message: 'Choose the seats or lines to cancel',
  })
  .refine((r) => r.reason !== 'other' || r.note.length > 0, { path: ['note'], message: 'Say what the reason is' });
export type CancelRequest = z.input<typeof CancelRequestSchema>;
export const CANCEL_INVALID = 'Check the cancel: some fields need fixing';

// ---- refunds owed ----

export const REFUND_TENDERS = ['cash', 'card'] as const;
export type RefundTender = (typeof REFUND_TENDERS)[number];

/** How card money owed was given back (recorded by whoever did it). */
export const RETURN_HOWS = ['provider-reversal', 'bank-transfer', 'cash'] as const;
export const ReturnHow = z.enum(RETURN_HOWS, { error: 'Choose how the money was returned' });
export type ReturnHow = z.infer<typeof ReturnHow>;
export const RETURN_HOW_LABELS: Record<ReturnHow, string> = {
  'provider-reversal': 'Reversed by the provider',
  'bank-transfer': 'Bank transfer',
  cash: 'Cash from the drawer',
};

export const RefundReturnedSchema = z.object({
  how: ReturnHow,
  reference: z.string(),
  by: z.string(),
  at: z.number(),
});

/**
 * One refund owed: the part of one undo that goes back by one tender. A split sale's cancel makes at
 * most two (card first, up to what the card paid and was not already owed back; then cash): money
 * that came by card never leaves the drawer as cash unless someone records that, by name.
 */
export const RefundViewSchema = z.object({
  id: RowId,
  /** Printed on the refund slip and shown everywhere: R + this counter's sequence, e.g. R0007. */
  refundNo: z.string(),
  orderId: RowId,
  outOrderNo: z.string(),
  /** cancel: seats or lines taken out; exchange: the difference of an exchange to a cheaper show. */
  kind: z.enum(['cancel', 'exchange']),
  tender: z.enum(REFUND_TENDERS),
  amountKobo: z.number().int().positive(),
  seats: z.array(z.string()),
  lines: z.array(z.object({ name: z.string(), quantity: z.number().int(), amountKobo: z.number().int() })),
  reason: UndoReason,
  note: z.string(),
  approved: ApprovedBySchema,
  cashier: z.string(),
  at: z.number(),
  shiftId: z.number().int().nullable(),
  /** Cash: returned at once (from the drawer). Card: null until someone records how. */
  returned: RefundReturnedSchema.nullable(),
  /** The new sale of an exchange this refund belongs to. */
  exchangeOrderId: z.number().int().nullable(),
  demo: z.boolean(),
});
export type RefundView = z.infer<typeof RefundViewSchema>;

export const MarkReturnedSchema = z
  .object({
    refundId: RowId,
    how: ReturnHow,
    reference: z.string().trim().min(1, 'Enter the reference of the reversal or transfer').max(64),
    by: Cashier,
  })
  .strict();
export const MARK_RETURNED_INVALID = 'Check how the money was returned: some fields need fixing';

/** Which tender a refund goes back by: the card first, up to what it paid and is not yet owed back; then cash. */
export function refundTenders(
  amountKobo: number,
  paid: { cardKobo: number; cashKobo: number },
  alreadyOwed: { cardKobo: number; cashKobo: number },
): { cardKobo: number; cashKobo: number } {
  const cardRoom = Math.max(0, paid.cardKobo - alreadyOwed.cardKobo);
  const cardKobo = Math.min(amountKobo, cardRoom);
  const cashRoom = Math.max(0, paid.cashKobo - alreadyOwed.cashKobo);
  const cashKobo = amountKobo - cardKobo;
  if (cashKobo > cashRoom) throw new RangeError('a refund larger than what the sale took');
  return { cardKobo, cashKobo };
}

// ---- exchange ----

/**
 * Moves tickets of a paid sale (`seats`, all its tickets when empty) to `to` (another show, or other
 * seats of the same one, each seat with its type). The new seats are held before anything changes;
 * the moved tickets' value is the credit; a higher new price is charged as the difference (`tender`:
 * card or cash, one new order linked to the first), a lower one makes a refund owed.
 */
export const ExchangeRequestSchema = z
  .object({
    orderId: RowId,
    seats: z.array(Seat).max(50).default([]),
    to: BasketTicketsSchema,
    tender: TenderSchema.optional(),
    sn: z.string().trim().max(64).optional(),
    reason: UndoReason,
    note: Note,
    approval: ApprovalSchema,
    cashier: Cashier,
  })
  .strict();
export type ExchangeRequest = z.input<typeof ExchangeRequestSchema>;
export const EXCHANGE_INVALID = 'Check the exchange: some fields need fixing';

/** What the Exchange panel asks as the cashier picks: the moved tickets and the new seats, nothing recorded. */
export const ExchangePriceSchema = ExchangeRequestSchema.pick({ orderId: true, seats: true, to: true });

/** The engine's price of an exchange: the credit, the new tickets' total, and what is paid or owed back; or what to fix. */
export const ExchangeQuoteSchema = z.discriminatedUnion('ok', [
  z.object({
    ok: z.literal(true),
    creditKobo: z.number().int(),
    newTotalKobo: z.number().int(),
    toPayKobo: z.number().int(),
    refundKobo: z.number().int(),
  }),
  z.object({ ok: z.literal(false), problems: z.array(z.object({ field: z.string(), message: z.string() })) }),
]);
export type ExchangeQuote = z.infer<typeof ExchangeQuoteSchema>;

/** The links of a sale to the sales around it: what it was exchanged from and into. */
export const SaleLinksSchema = z.object({
  exchangedFrom: z.object({ orderId: RowId, outOrderNo: z.string() }).nullable(),
  exchangedTo: z.array(z.object({ orderId: RowId, outOrderNo: z.string() })),
  /** Seats of this sale no longer valid (cancelled or moved). */
  cancelledSeats: z.array(z.string()),
});
export type SaleLinks = z.infer<typeof SaleLinksSchema>;
