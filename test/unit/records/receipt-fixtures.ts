// Fixed orders, receipts and reports for the receipt tests (golden files depend on every byte here).
import type { OrderView } from '../../../shared/orders';
import type { ShiftReport } from '../../../shared/records';
import { defaultCinemaSettings } from '../../../shared/records';
import { buildReceipt } from '../../../core/records/receipts/receipt-model';

export const PAID_AT = Date.UTC(2026, 10, 21, 18, 2, 11); // 19:02:11 in Lagos

export const PAID_ORDER: OrderView = {
  id: 42,
  outOrderNo: 'C1-261121-0007',
  state: 'paid',
  sale: {
    filmName: 'AVENGERS-2D',
    filmTitle: 'Avengers: Doomsday',
    showDate: '2026-11-21',
    showTime: '19:30',
    seats: 'F7,F8',
    tickets: 2,
    priceKobo: 250_000,
    bookingFeeKobo: 20_000,
    sn: 'DEMO-POS-0001',
  },
  amountKobo: 520_000,
  sn: 'DEMO-POS-0001',
  createdAt: PAID_AT - 60_000,
  expiresAt: PAID_AT + 240_000,
  orderNo: '250102050012345678',
  payNo: '2501020500998877',
  providerFeeKobo: 7_800,
  senderAccount: '5399********1234',
  senderName: 'ADA OKAFOR',
  transactionTime: PAID_AT,
  completedTime: PAID_AT + 3_000,
  attempts: 1,
  providerStatus: 'SUCCESS',
};

export const CINEMA = { ...defaultCinemaSettings(), name: 'Filmhouse Lekki', branch: 'Admiralty Way, Lekki Phase 1' };

export function paidReceipt(reprint = false) {
  return buildReceipt({ order: PAID_ORDER, cinema: CINEMA, counterName: 'Counter 3', cashier: 'Ngozi Eze', reprint });
}

export function failedReceipt() {
  const { orderNo: _o, payNo: _p, completedTime: _c, ...rest } = PAID_ORDER;
  return buildReceipt({
    order: {
      ...rest,
      id: 43,
      outOrderNo: 'C1-261121-0008',
      state: 'failed',
      sale: {
        ...PAID_ORDER.sale,
        filmTitle: 'Amélie – “Le Fabuleux Destin”',
        filmName: 'AMELIE',
        seats: 'A1',
        tickets: 1,
      },
      amountKobo: 270_000,
      reason: 'Declined by the bank',
    },
    cinema: CINEMA,
    counterName: 'Counter 3',
    cashier: '',
    reprint: false,
  });
}

export const Z_REPORT: ShiftReport = {
  kind: 'Z',
  id: 4,
  shift: {
    id: 9,
    cashier: 'Ngozi Eze',
    openedAt: Date.UTC(2026, 10, 21, 13, 0, 0),
    openingFloatKobo: 500_000,
    closedAt: Date.UTC(2026, 10, 21, 21, 45, 0),
  },
  generatedAt: Date.UTC(2026, 10, 21, 21, 45, 0),
  cinemaName: CINEMA.name,
  branch: CINEMA.branch,
  counterName: 'Counter 3',
  totals: {
    from: Date.UTC(2026, 10, 21, 13, 0, 0),
    to: Date.UTC(2026, 10, 21, 21, 45, 0),
    shows: [],
    paidAfterClosing: { count: 0, amountKobo: 0, items: [] },
    sweep: null,
    noShift: { count: 0, amountKobo: 0 },
    paid: { count: 12, amountKobo: 6_240_000 },
    failed: { count: 2, amountKobo: 540_000 },
    cancelled: { count: 1, amountKobo: 250_000 },
    expired: { count: 1, amountKobo: 270_000 },
    open: { count: 1, amountKobo: 520_000 },
    ticketsSold: 24,
    bookingFeesKobo: 240_000,
    providerFeesKobo: 93_600,
    paidLate: { count: 1, amountKobo: 270_000 },
    refundToArrange: { count: 0, amountKobo: 0 },
    reportedOtherwise: { count: 0, amountKobo: 0 },
    card: { count: 13, amountKobo: 6_510_000 },
    topupsSuccessful: { count: 3, amountKobo: 300_000 },
    topups: {
      available: true,
      lines: [
        { state: 'success', label: 'Successful', count: 3, amountKobo: 300_000 },
        { state: 'fail', label: 'Failed', count: 1, amountKobo: 50_000 },
      ],
      successKobo: 300_000,
    },
    openItems: [
      {
        kind: 'order',
        id: 77,
        ref: 'C1-261121-0031',
        state: 'unknown',
        label: 'Checking the payment',
        amountKobo: 520_000,
        createdAt: Date.UTC(2026, 10, 21, 21, 30, 0),
      },
    ],
  },
};

/** A paid sale of a show with a seat map (Screen 1, two VIP seats sold from the programme). */
export function seatMapReceipt() {
  return buildReceipt({
    order: {
      ...PAID_ORDER,
      seatHold: {
        showKey: '2026-11-21 19:30 screen 1',
        screen: 'Screen 1',
        seats: ['M10', 'M11'],
        outcome: 'held',
        note: null,
      },
    },
    cinema: CINEMA,
    counterName: 'Counter 3',
    cashier: 'Ngozi Eze',
    reprint: false,
    programme: { screen: 'Screen 1', ticketType: 'VIP' },
  });
}
