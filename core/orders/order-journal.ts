// The order journal in SQLite: every order is written before it is sent, every change of state
// after it, each in its own committed transaction with an event row. Final orders never change.
// Each of these events also goes to the Hub's outbox (the JournalSink) in the same transaction:
// a new order as `order.created`, a change of state, or a provider number first learnt, as
// `order.status`. What a row becomes (OrderRecord, its view, its Hub event) is order-record.ts.
import type { Db } from '../db';
import { clipText, NO_JOURNAL_SINK, type JournalSink } from '../journal-sink';
import type { OrderEvent, OrderState, Sale } from '../../shared/orders';
import { canTransition, isFinalState, OPEN_STATES } from './order-state';
import { FACT_COLUMNS, learntNumbers, statusEvent, toRecord, type OrderRecord, type Row } from './order-record';
import { formatOutOrderNo } from './out-order-no';
import type { ProviderFacts } from './sale-wire';
import type { RecordProfile } from '../../shared/record-profile';
import type { SoldBasket } from '../../shared/basket-sale';

export { toView, type OrderRecord } from './order-record';

interface NewOrder {
  sale: Sale;
  /** The card part: what the card order on the terminal is for (0 for a cash sale). */
  amountKobo: number;
  /** A basket sale's lines, tender and amounts (absent: a sale of one ticket type by card). */
  basket?: SoldBasket;
  counterCode: string;
  businessDay: string; // yyMMdd, Lagos
  createdAt: number;
  expireSeconds: number;
  state: 'queued' | 'creating';
  /** 1 when the order is inserted as `creating` (its first send is under way). */
  attempts: number;
  headMerchantId: string;
  merchantId: string;
  /** The active profile when the sale was made (absent: "unrecorded", counted as real). */
  profile?: RecordProfile;
  retryOf?: number;
  note: string;
  reason?: string;
  /** Written by another owner in the same transaction as the order (an integration's reference → order link). */
  alongside?: (id: number, outOrderNo: string) => void;
}

/** Changes written with a transition (or alone, on an open order). Undefined keeps a column. */
export interface OrderPatch extends ProviderFacts {
  /** null clears the reason. */
  reason?: string | null;
  waitingSince?: number;
  /** Add one to `attempts` (a create is about to be sent). */
  countAttempt?: boolean;
}

interface TransitionResult {
  changed: boolean;
  record: OrderRecord | null;
  /** Why nothing changed: the order is final, the move is not allowed, or `from` did not match. */
  refused?: string;
}

export class OrderJournal {
  /**
   * `sink`: where each event also goes, in its transaction (the Hub's outbox; none in tools and some
   * tests). `moved`: another owner's write after each change of state, in its transaction (an
   * exchange completed when its new sale is paid: exchange.ts); it must never throw.
   */
  constructor(
    private readonly db: Db,
    private readonly now: () => number,
    private readonly sink: JournalSink = NO_JOURNAL_SINK,
    private readonly moved: (after: OrderRecord, from: OrderState) => void = () => {},
  ) {}

  /**
   * Records a new sale with the next order number of its counter and day, in one transaction:
   * the number is never handed out without its order, nor twice.
   */
  insert(o: NewOrder): OrderRecord {
    const tx = this.db.transaction((): number => {
      const bump = this.db.prepare(
        `INSERT INTO order_counters (counter_code, business_day, last_seq) VALUES (?, ?, 1)
         ON CONFLICT (counter_code, business_day) DO UPDATE SET last_seq = last_seq + 1 RETURNING last_seq`,
      );
      const taken = this.db.prepare('SELECT 1 FROM orders WHERE out_order_no = ?');
      let seq = (bump.get(o.counterCode, o.businessDay) as { last_seq: number }).last_seq;
      let outOrderNo = formatOutOrderNo(o.counterCode, o.businessDay, seq);
      // A number may already be used if the counter table was ever rebuilt: skip, never reuse.
      while (taken.get(outOrderNo)) {
        seq = (bump.get(o.counterCode, o.businessDay) as { last_seq: number }).last_seq;
        outOrderNo = formatOutOrderNo(o.counterCode, o.businessDay, seq);
      }
      const s = o.sale;
      const info = this.db
        .prepare(
          `INSERT INTO orders (out_order_no, counter_code, business_day, seq, head_merchant_id, merchant_id, state,
             film_name, film_title, show_date, show_time, seats, tickets, price_kobo, booking_fee_kobo, amount_kobo, sn,
             expire_seconds, created_at, expires_at, updated_at, reason, retry_of, attempts, profile,
             basket_json, tender, cash_kobo)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          outOrderNo,
          o.counterCode,
          o.businessDay,
          seq,
          o.headMerchantId,
          o.merchantId,
          o.state,
          s.filmName,
          s.filmTitle,
          s.showDate,
          s.showTime,
          s.seats,
          s.tickets,
          s.priceKobo,
          s.bookingFeeKobo,
          o.amountKobo,
          s.sn,
          o.expireSeconds,
          o.createdAt,
          o.createdAt + o.expireSeconds * 1000,
          o.createdAt,
          o.reason ?? null,
          o.retryOf ?? null,
          o.attempts,
          o.profile ?? 'unrecorded',
          o.basket ? JSON.stringify(o.basket) : null,
          o.basket?.tender.kind ?? 'card',
          o.basket?.amounts.cashKobo ?? 0,
        );
      const id = Number(info.lastInsertRowid);
      this.addEvent(id, o.createdAt, null, o.state, o.note);
      // No cashier here: the sink knows whose shift was open (the records module's business).
      this.sink.append(
        'order.created',
        {
          reference: outOrderNo,
          amountKobo: o.amountKobo,
          sn: clipText(s.sn, 64),
          sale: {
            filmName: clipText(s.filmName, 100),
            filmTitle: clipText(s.filmTitle, 100),
            showDate: clipText(s.showDate, 10),
            showTime: clipText(s.showTime, 5),
            seats: clipText(s.seats, 400),
            tickets: s.tickets,
            priceKobo: s.priceKobo,
            bookingFeeKobo: s.bookingFeeKobo,
          },
          ...(o.basket ? { basket: o.basket } : {}),
          profile: clipText(o.profile ?? 'unrecorded', 32),
          merchantId: clipText(o.merchantId, 64),
          expiresAt: Math.round(o.createdAt + o.expireSeconds * 1000),
        },
        o.createdAt,
      );
      o.alongside?.(id, outOrderNo);
      return id;
    });
    return this.require(tx.immediate());
  }

  get(id: number): OrderRecord | null {
    const r = this.db.prepare('SELECT * FROM orders WHERE id = ?').get(id) as Row | undefined;
    return r ? toRecord(r) : null;
  }

  findByOutOrderNo(outOrderNo: string): OrderRecord | null {
    const r = this.db.prepare('SELECT * FROM orders WHERE out_order_no = ?').get(outOrderNo) as Row | undefined;
    return r ? toRecord(r) : null;
  }

  findByOrderNo(orderNo: string): OrderRecord | null {
    const r = this.db.prepare('SELECT * FROM orders WHERE order_no = ? ORDER BY id DESC LIMIT 1').get(orderNo) as
      Row | undefined;
    return r ? toRecord(r) : null;
  }

  /** Orders of one business day (yyMMdd), newest first. */
  listDay(businessDay: string): OrderRecord[] {
    return (
      this.db
        .prepare('SELECT * FROM orders WHERE business_day = ? ORDER BY created_at DESC, id DESC')
        .all(businessDay) as Row[]
    ).map(toRecord);
  }

  /** Queued orders, oldest first: the order the queue sender sends them in. */
  listQueued(): OrderRecord[] {
    return (this.db.prepare("SELECT * FROM orders WHERE state = 'queued' ORDER BY created_at, id").all() as Row[]).map(
      toRecord,
    );
  }

  countQueued(): number {
    return (this.db.prepare("SELECT COUNT(*) AS n FROM orders WHERE state = 'queued'").get() as { n: number }).n;
  }

  /** Paid orders still missing what a receipt needs (payNo, completion time), oldest first. */
  listPaidMissingDetails(): OrderRecord[] {
    return (
      this.db
        .prepare(
          "SELECT * FROM orders WHERE state = 'paid' AND tender != 'cash' AND (pay_no IS NULL OR completed_time IS NULL) ORDER BY created_at, id",
        )
        .all() as Row[]
    ).map(toRecord);
  }

  /** Every order that is not final, oldest first. */
  listOpen(): OrderRecord[] {
    const marks = OPEN_STATES.map(() => '?').join(',');
    return (
      this.db
        .prepare(`SELECT * FROM orders WHERE state IN (${marks}) ORDER BY created_at, id`)
        .all(...OPEN_STATES) as Row[]
    ).map(toRecord);
  }

  /**
   * What a new sale for terminal `sn` is judged against (charge-guard.ts), oldest first: the open
   * orders on `sn`, and every queued order with the open orders of its terminal (a queued sale that
   * could go now keeps the new one behind it). Found by terminal (orders_terminal_state), so the
   * other terminals' open orders are not read. Terminals compare as charge-guard's `sameTerminal`
   * (a stored SN is trimmed letters, digits and dashes: shared/orders.ts).
   */
  listOpenForSale(sn: string): OrderRecord[] {
    const marks = OPEN_STATES.map(() => '?').join(',');
    return (
      this.db
        .prepare(
          `SELECT * FROM orders WHERE state IN (${marks}) AND upper(trim(sn)) IN
             (SELECT upper(trim(?)) UNION SELECT upper(trim(sn)) FROM orders WHERE state = 'queued')
           ORDER BY created_at, id`,
        )
        .all(...OPEN_STATES, sn) as Row[]
    ).map(toRecord);
  }

  /** How many orders are not final (one COUNT, no record built). */
  countOpen(): number {
    const marks = OPEN_STATES.map(() => '?').join(',');
    return (
      this.db.prepare(`SELECT COUNT(*) AS n FROM orders WHERE state IN (${marks})`).get(...OPEN_STATES) as { n: number }
    ).n;
  }

  history(id: number): OrderEvent[] {
    const rows = this.db
      .prepare('SELECT at, from_state, to_state, note FROM order_events WHERE order_id = ? ORDER BY id')
      .all(id) as Row[];
    return rows.map((r) => ({
      at: r.at as number,
      from: (r.from_state as OrderState | null) ?? null,
      to: r.to_state as OrderState,
      note: r.note as string,
    }));
  }

  /**
   * Moves an order to `to` with its patch and an event, atomically; refuses (changing nothing)
   * when the order is final, the move is not allowed, or its state is not one of `from`.
   */
  transition(
    id: number,
    to: OrderState,
    note: string,
    opts: { from?: readonly OrderState[]; patch?: OrderPatch } = {},
  ): TransitionResult {
    const tx = this.db.transaction((): TransitionResult => {
      const cur = this.get(id);
      if (!cur) return { changed: false, record: null, refused: 'no such order' };
      if (isFinalState(cur.state)) return { changed: false, record: cur, refused: `order is ${cur.state} (final)` };
      if (opts.from && !opts.from.includes(cur.state))
        return { changed: false, record: cur, refused: `order is ${cur.state}, expected ${opts.from.join('/')}` };
      if (!canTransition(cur.state, to))
        return { changed: false, record: cur, refused: `${cur.state} -> ${to} is not allowed` };
      const at = this.now();
      this.write(id, at, { ...opts.patch }, to);
      this.addEvent(id, at, cur.state, to, note);
      const after = this.require(id);
      this.sink.append('order.status', statusEvent(after, note), at);
      this.moved(after, cur.state);
      return { changed: true, record: after };
    });
    return tx.immediate();
  }

  /** Writes a patch to an open order without changing its state; final orders are left alone. */
  update(id: number, patch: OrderPatch, opts: { states?: readonly OrderState[] } = {}): TransitionResult {
    const tx = this.db.transaction((): TransitionResult => {
      const cur = this.get(id);
      if (!cur) return { changed: false, record: null, refused: 'no such order' };
      if (isFinalState(cur.state)) return { changed: false, record: cur, refused: `order is ${cur.state} (final)` };
      if (opts.states && !opts.states.includes(cur.state))
        return { changed: false, record: cur, refused: `order is ${cur.state}` };
      if (!this.differs(cur, patch)) return { changed: false, record: cur };
      const at = this.now();
      this.write(id, at, patch, null);
      const after = this.get(id);
      // The provider's order number known before the order moves: the Hub learns it now.
      if (after && learntNumbers(cur, after)) this.sink.append('order.status', statusEvent(after), at);
      return { changed: true, record: after };
    });
    return tx.immediate();
  }

  /**
   * Fills details a final order still lacks (a webhook carries no payNo) from the provider's own
   * later report of the same outcome. Never overwrites a value, never changes the state.
   */
  fillMissing(id: number, state: OrderState, facts: ProviderFacts): TransitionResult {
    const tx = this.db.transaction((): TransitionResult => {
      const cur = this.get(id);
      if (!cur) return { changed: false, record: null, refused: 'no such order' };
      if (cur.state !== state) return { changed: false, record: cur, refused: `order is ${cur.state}, not ${state}` };
      const sets: string[] = [];
      const args: unknown[] = [];
      for (const [k, col] of Object.entries(FACT_COLUMNS) as [keyof ProviderFacts, string][]) {
        if (facts[k] !== undefined) {
          sets.push(`${col} = COALESCE(${col}, ?)`);
          args.push(facts[k]);
        }
      }
      if (sets.length === 0) return { changed: false, record: cur };
      this.db.prepare(`UPDATE orders SET ${sets.join(', ')} WHERE id = ?`).run(...args, id);
      const after = this.get(id);
      if (after && learntNumbers(cur, after)) this.sink.append('order.status', statusEvent(after), this.now());
      return { changed: JSON.stringify(after) !== JSON.stringify(cur), record: after };
    });
    return tx.immediate();
  }

  private differs(cur: OrderRecord, p: OrderPatch): boolean {
    if (p.countAttempt) return true;
    if (p.reason !== undefined && (p.reason ?? undefined) !== cur.reason) return true;
    if (p.waitingSince !== undefined && cur.waitingSince === undefined) return true;
    const current: Record<keyof ProviderFacts, unknown> = {
      orderNo: cur.orderNo,
      payNo: cur.payNo,
      providerFeeKobo: cur.providerFeeKobo,
      feePattern: cur.feePattern,
      senderName: cur.senderName,
      senderAccount: cur.senderAccount,
      transactionTime: cur.transactionTime,
      completedTime: cur.completedTime,
      providerStatus: cur.providerStatus,
      detailsJson: cur.detailsJson,
    };
    return (Object.keys(FACT_COLUMNS) as (keyof ProviderFacts)[]).some(
      (k) => p[k] !== undefined && p[k] !== current[k],
    );
  }

  private write(id: number, at: number, p: OrderPatch, state: OrderState | null): void {
    const sets: string[] = ['updated_at = ?'];
    const args: unknown[] = [at];
    if (state) {
      sets.push('state = ?');
      args.push(state);
    }
    for (const [k, col] of Object.entries(FACT_COLUMNS) as [keyof ProviderFacts, string][]) {
      if (p[k] !== undefined) {
        sets.push(`${col} = ?`);
        args.push(p[k]);
      }
    }
    if (p.reason !== undefined) {
      sets.push('reason = ?');
      args.push(p.reason);
    }
    // The time the order first reached the terminal is kept: the poll schedule counts from it.
    if (p.waitingSince !== undefined) {
      sets.push('waiting_since = COALESCE(waiting_since, ?)');
      args.push(p.waitingSince);
    }
    if (p.countAttempt) sets.push('attempts = attempts + 1');
    this.db.prepare(`UPDATE orders SET ${sets.join(', ')} WHERE id = ?`).run(...args, id);
  }

  /**
   * Adds a line to an order's history that does not change its state (an undo after the sale): the
   * trace the order detail shows, and a new version for a box office's charge (its callback).
   * Must run inside the caller's transaction.
   */
  noteEvent(id: number, at: number, note: string): void {
    const cur = this.get(id);
    if (!cur) throw new Error(`order ${id} is not in the journal`);
    this.addEvent(id, at, cur.state, cur.state, clipText(note, 400));
  }

  private addEvent(id: number, at: number, from: OrderState | null, to: OrderState, note: string): void {
    this.db
      .prepare('INSERT INTO order_events (order_id, at, from_state, to_state, note) VALUES (?, ?, ?, ?, ?)')
      .run(id, at, from, to, note);
  }

  private require(id: number): OrderRecord {
    const r = this.get(id);
    if (!r) throw new Error(`order ${id} vanished after insert`);
    return r;
  }
}
