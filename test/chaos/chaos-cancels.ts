// The cancels and exchanges of the chaos run (docs/refunds.md): the driver picks a paid sale it made,
// cancels some or all of its seats, or exchanges them for seats of a later show of the same film (a
// higher price paid in cash), with the admin PIN, and keeps what it asked for and what it was told
// (the refund numbers, the new sale), with its own price of the seats (modelSeatKobo, modelTypeKobo). Half the cancels that were
// acknowledged are followed by a sale of the same seats, so a seat freed by a cancel is sold again.
// The undo verdict (undo-verdict.ts) reads the journal against these.
import type { BasketSaleInput } from '../../shared/basket-sale';
import type { OrderState, SaleInput } from '../../shared/orders';
import { seatList } from '../../shared/seat-list';
import { CHAOS_TICKET_TYPES, modelSeatKobo, modelTypeKobo } from '../helpers/chaos-basket';
import type { Rng } from '../helpers/chaos-random';
import type { AppProcess, CancelResult, ExchangeResult } from './app-process';
import type { DriverCancel, DriverExchange } from './undo-verdict';

type AnySale = SaleInput | BasketSaleInput;

const seatsOf = (sale: AnySale): string[] =>
  'tender' in sale ? (sale.tickets?.seats ?? []).map((s) => s.seat.toUpperCase()) : seatList(sale.seats);

export class ChaosCancels {
  /** Acknowledged sales with seats, by outOrderNo. */
  private readonly sold = new Map<string, { id: number; sale: AnySale }>();
  /** Sales a cancel was asked of (each at most once). */
  private readonly touched = new Set<string>();
  private readonly resell: SaleInput[] = [];
  readonly asked: DriverCancel[] = [];
  readonly exchanges: DriverExchange[] = [];
  readonly refused = new Map<string, number>();

  constructor(
    private readonly rng: Rng,
    private readonly terminals: string[],
  ) {}

  noteSale(id: number, outOrderNo: string, sale: AnySale): void {
    if (seatsOf(sale).length > 0) this.sold.set(outOrderNo, { id, sale });
  }

  /** A sale of seats a cancel freed, if one is waiting. */
  nextResell(): SaleInput | undefined {
    return this.resell.shift();
  }

  /** Whether a paid sale of the driver's is left to cancel. */
  canCancel(view: ReadonlyMap<string, OrderState>): boolean {
    return this.candidates(view).length > 0;
  }

  /** Starts an exchange of some or all seats of a random paid sale for as many seats of another show of its film. */
  startExchange(app: AppProcess, view: ReadonlyMap<string, OrderState>): Promise<ExchangeResult> | null {
    const c = this.candidates(view);
    if (c.length === 0) return null;
    const out = c[this.rng.int(0, c.length - 1)]!;
    const { id, sale } = this.sold.get(out)!;
    this.touched.add(out);
    const all = seatsOf(sale);
    const seats = this.rng.chance(0.5) ? all : all.filter(() => this.rng.chance(0.5));
    if (seats.length === 0) seats.push(all[this.rng.int(0, all.length - 1)]!);
    const show = 'tender' in sale ? sale.tickets! : sale;
    const row = String.fromCharCode(65 + this.rng.int(0, 11));
    const first = this.rng.int(1, 20);
    const to = {
      filmName: show.filmName,
      filmTitle: show.filmTitle,
      showDate: show.showDate,
      showTime: `${this.rng.int(12, 22)}:${this.rng.chance(0.5) ? '15' : '45'}`,
      seats: seats.map((_, k) => ({
        seat: `${row}${first + k}`,
        ticketType: CHAOS_TICKET_TYPES[this.rng.int(0, CHAOS_TICKET_TYPES.length - 1)]!.name,
      })),
    };
    const creditKobo = seats.reduce((n, s) => n + modelSeatKobo(sale, s), 0);
    const newKobo = to.seats.reduce((n, s) => n + modelTypeKobo(s.ticketType), 0);
    const toPay = Math.max(0, newKobo - creditKobo);
    const asked: DriverExchange = {
      orderId: id,
      outOrderNo: out,
      seats,
      newSeats: to.seats.map((s) => s.seat),
      expectedRefundKobo: Math.max(0, creditKobo - newKobo),
    };
    this.exchanges.push(asked);
    return app
      .exchange({
        orderId: id,
        seats,
        to,
        ...(toPay > 0 ? { tender: { kind: 'cash', tenderedKobo: Math.ceil(toPay / 100_000) * 100_000 } } : {}),
      })
      .then((r) => {
        if (r.kind === 'exchanged')
          asked.answer = { newOrderId: r.newOrderId, newState: r.newState, refundNos: r.refundNos };
        else if (r.kind === 'refused') this.refused.set(r.code, (this.refused.get(r.code) ?? 0) + 1);
        return r;
      });
  }

  /** Starts a cancel of some or all seats of a random paid sale; the promise ends with its answer. */
  start(app: AppProcess, view: ReadonlyMap<string, OrderState>): Promise<CancelResult> | null {
    const c = this.candidates(view);
    if (c.length === 0) return null;
    const out = c[this.rng.int(0, c.length - 1)]!;
    const { id, sale } = this.sold.get(out)!;
    this.touched.add(out);
    const all = seatsOf(sale);
    const seats = this.rng.chance(0.4) ? all : all.filter(() => this.rng.chance(0.5));
    if (seats.length === 0) seats.push(all[this.rng.int(0, all.length - 1)]!);
    const asked: DriverCancel = {
      orderId: id,
      outOrderNo: out,
      seats,
      expectedKobo: seats.reduce((n, s) => n + modelSeatKobo(sale, s), 0),
    };
    this.asked.push(asked);
    const sn = this.terminals[this.rng.int(0, this.terminals.length - 1)]!;
    const again = this.rng.chance(0.5);
    return app.cancel(id, seats).then((r) => {
      if (r.kind === 'cancelled') {
        asked.refundNos = r.refundNos;
        if (again) this.resell.push(resale(sale, seats, sn));
      } else if (r.kind === 'refused') this.refused.set(r.code, (this.refused.get(r.code) ?? 0) + 1);
      return r;
    });
  }

  summary(): string {
    const acked = this.asked.filter((c) => c.refundNos).length;
    const refused = [...this.refused].map(([k, n]) => `${k}=${n}`).join(' ');
    const exchanged = this.exchanges.filter((x) => x.answer).length;
    const unanswered =
      this.asked.length +
      this.exchanges.length -
      acked -
      exchanged -
      [...this.refused.values()].reduce((a, b) => a + b, 0);
    return `cancels: ${this.asked.length} asked, ${acked} acknowledged; exchanges: ${this.exchanges.length} asked, ${exchanged} acknowledged; refused ${refused || 'none'}; ${unanswered} unanswered (killed)`;
  }

  private candidates(view: ReadonlyMap<string, OrderState>): string[] {
    return [...this.sold.keys()].filter((out) => !this.touched.has(out) && view.get(out) === 'paid');
  }
}

/** A sale of one ticket type of the cancelled seats, on the same show. */
function resale(sale: AnySale, seats: string[], sn: string): SaleInput {
  const show = 'tender' in sale ? sale.tickets! : sale;
  return {
    filmName: show.filmName,
    filmTitle: show.filmTitle,
    showDate: show.showDate,
    showTime: show.showTime,
    seats: seats.join(','),
    tickets: seats.length,
    priceKobo: 300_000,
    bookingFeeKobo: 0,
    sn,
  };
}
