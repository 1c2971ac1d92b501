// The order journal's tables, as named migrations run once each: the journal itself, then the
// profile every order was made under, then the provider's late outcomes of closed orders, then the
// last "Check with the provider" of each closed order.
import { DEMO_AUTO_TERMINAL_SN, DEMO_HEAD_MERCHANT_ID, DEMO_TERMINAL_SN } from '../../shared/demo-merchant';
import type { Migration } from '../db';
import { checkIn } from '../lib';
import { ORDER_STATES } from './order-state';
import { HANDLED_HOWS, LATE_KINDS, LATE_SOURCES } from '../../shared/late-payments';

export const ORDER_MIGRATIONS: Migration[] = [
  {
    name: 'orders-001-journal',
    sql: `
      CREATE TABLE orders (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        out_order_no TEXT NOT NULL UNIQUE,
        counter_code TEXT NOT NULL,
        business_day TEXT NOT NULL,
        seq INTEGER NOT NULL,
        head_merchant_id TEXT NOT NULL,
        merchant_id TEXT NOT NULL,
        state TEXT NOT NULL ${checkIn('state', ORDER_STATES)},
        film_name TEXT NOT NULL,
        film_title TEXT NOT NULL,
        show_date TEXT NOT NULL,
        show_time TEXT NOT NULL,
        seats TEXT NOT NULL,
        tickets INTEGER NOT NULL,
        price_kobo INTEGER NOT NULL,
        booking_fee_kobo INTEGER NOT NULL,
        amount_kobo INTEGER NOT NULL,
        sn TEXT NOT NULL,
        expire_seconds INTEGER NOT NULL,
        created_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        waiting_since INTEGER,
        attempts INTEGER NOT NULL DEFAULT 0,
        order_no TEXT,
        pay_no TEXT,
        provider_fee_kobo INTEGER,
        fee_pattern TEXT,
        sender_name TEXT,
        sender_account TEXT,
        transaction_time INTEGER,
        completed_time INTEGER,
        provider_status TEXT,
        reason TEXT,
        details_json TEXT,
        retry_of INTEGER REFERENCES orders(id)
      );
      CREATE INDEX orders_order_no ON orders(order_no);
      CREATE INDEX orders_pay_no ON orders(pay_no);
      CREATE INDEX orders_created_at ON orders(created_at);
      CREATE INDEX orders_state ON orders(state);
      CREATE INDEX orders_business_day ON orders(business_day);
      CREATE TABLE order_events (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        order_id INTEGER NOT NULL REFERENCES orders(id),
        at INTEGER NOT NULL,
        from_state TEXT,
        to_state TEXT NOT NULL,
        note TEXT NOT NULL
      );
      CREATE INDEX order_events_order ON order_events(order_id, id);
      CREATE TABLE order_counters (
        counter_code TEXT NOT NULL,
        business_day TEXT NOT NULL,
        last_seq INTEGER NOT NULL,
        PRIMARY KEY (counter_code, business_day)
      );
    `,
  },
  {
    // The profile each order was made under. Older orders cannot say; those sold to the Demo
    // merchant on a Demo terminal were Demo sales beyond doubt (that merchant and those terminals
    // exist only in the embedded sandbox). Every other older order stays "unrecorded" and keeps
    // counting as real: a counter's history must not drop out of its totals.
    name: 'orders-002-profile',
    sql: `
      ALTER TABLE orders ADD COLUMN profile TEXT NOT NULL DEFAULT 'unrecorded';
      UPDATE orders SET profile = 'demo'
        WHERE head_merchant_id = '${DEMO_HEAD_MERCHANT_ID}' AND sn IN ('${DEMO_TERMINAL_SN}', '${DEMO_AUTO_TERMINAL_SN}');
      CREATE INDEX orders_profile_created ON orders(profile, created_at);
    `,
  },
  {
    // A provider outcome that contradicts a closed order (docs/late-payments.md): one per order,
    // beside it; the order's own state never changes. Handled once, by someone, at a time.
    name: 'orders-003-late-outcomes',
    sql: `
      CREATE TABLE order_late (
        order_id INTEGER PRIMARY KEY REFERENCES orders(id),
        kind TEXT NOT NULL ${checkIn('kind', LATE_KINDS)},
        provider_status TEXT NOT NULL,
        closed_as TEXT NOT NULL ${checkIn('closed_as', ORDER_STATES)},
        amount_kobo INTEGER NOT NULL,
        pay_no TEXT,
        sender_account TEXT,
        provider_at INTEGER,
        found_at INTEGER NOT NULL,
        source TEXT NOT NULL ${checkIn('source', LATE_SOURCES)},
        handled_how TEXT ${checkIn('handled_how', HANDLED_HOWS)},
        handled_by TEXT,
        handled_at INTEGER,
        handled_note TEXT
      );
      CREATE INDEX order_late_found ON order_late(found_at);
      CREATE INDEX order_late_handled ON order_late(handled_at);
    `,
  },
  {
    // The last "Check with the provider" of a closed order (one status query, its answer): Try
    // again is accepted only when it said not paid. One row per order, replaced by the next check.
    name: 'orders-004-provider-checks',
    sql: `
      CREATE TABLE order_checks (
        order_id INTEGER PRIMARY KEY REFERENCES orders(id),
        at INTEGER NOT NULL,
        provider_status TEXT NOT NULL,
        paid INTEGER NOT NULL CHECK (paid IN (0, 1))
      );
    `,
  },
  {
    // The seats of a sale of a show with a seat map (docs/seat-maps.md): which show, which seats, and
    // how the hold went (held across counters, not checked, or taken elsewhere). One row per order,
    // written with the order in its transaction; "this counter's own sales" of a show are read here.
    name: 'orders-005-seat-holds',
    sql: `
      CREATE TABLE order_seat_holds (
        order_id INTEGER PRIMARY KEY REFERENCES orders(id),
        show_key TEXT NOT NULL,
        screen TEXT NOT NULL,
        seats TEXT NOT NULL,
        outcome TEXT CHECK (outcome IN ('held', 'unchecked', 'taken')),
        note TEXT
      );
      CREATE INDEX order_seat_holds_show ON order_seat_holds(show_key);
    `,
  },
  {
    // A hold the Hub refused (too many requests from this counter, or the request itself): the sale
    // fails before the provider is asked, as when its seats were taken. SQLite cannot widen a CHECK
    // in place: the table is made again with its rows.
    name: 'orders-006-seat-hold-refused',
    sql: `
      CREATE TABLE order_seat_holds_006 (
        order_id INTEGER PRIMARY KEY REFERENCES orders(id),
        show_key TEXT NOT NULL,
        screen TEXT NOT NULL,
        seats TEXT NOT NULL,
        outcome TEXT CHECK (outcome IN ('held', 'unchecked', 'taken', 'refused')),
        note TEXT
      );
      INSERT INTO order_seat_holds_006 (order_id, show_key, screen, seats, outcome, note)
        SELECT order_id, show_key, screen, seats, outcome, note FROM order_seat_holds;
      DROP TABLE order_seat_holds;
      ALTER TABLE order_seat_holds_006 RENAME TO order_seat_holds;
      CREATE INDEX order_seat_holds_show ON order_seat_holds(show_key);
    `,
  },
  {
    // A new sale is judged against the open orders of its own terminal (charge-guard.ts): found by
    // terminal, not by reading every open order (OrderJournal.listOpenForSale).
    name: 'orders-007-open-by-terminal',
    sql: `CREATE INDEX orders_terminal_state ON orders(upper(trim(sn)), state);`,
  },
  {
    // A sale is a basket (docs/concessions.md): its priced lines, tender and amounts as the engine
    // computed them (JSON, absent for a sale of one ticket type by card), how it is paid, and its
    // cash part. amount_kobo stays what the card order on the terminal is for (the card part).
    name: 'orders-008-basket',
    sql: `
      ALTER TABLE orders ADD COLUMN basket_json TEXT;
      ALTER TABLE orders ADD COLUMN tender TEXT NOT NULL DEFAULT 'card' CHECK (tender IN ('card', 'cash', 'split'));
      ALTER TABLE orders ADD COLUMN cash_kobo INTEGER NOT NULL DEFAULT 0;
    `,
  },
  {
    // After the sale (docs/refunds.md): each undo of a paid sale (a cancel, an exchange) with its
    // reason, who approved it and how, the cashier, the shift and the concession lines it took out;
    // the seats of the sale no longer valid; and the refunds owed it made, one per tender, R + a
    // sequence, cash returned at once, card until someone records how. The sale itself never changes.
    name: 'orders-009-undo-refunds',
    sql: `
      CREATE TABLE order_undos (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        order_id INTEGER NOT NULL REFERENCES orders(id),
        kind TEXT NOT NULL CHECK (kind IN ('cancel', 'exchange')),
        at INTEGER NOT NULL,
        reason TEXT NOT NULL,
        note TEXT NOT NULL,
        approved_how TEXT NOT NULL CHECK (approved_how IN ('pin', 'code')),
        approved_by TEXT NOT NULL,
        approved_at INTEGER NOT NULL,
        cashier TEXT NOT NULL,
        shift_id INTEGER,
        demo INTEGER NOT NULL CHECK (demo IN (0, 1)),
        lines_json TEXT NOT NULL,
        amount_kobo INTEGER NOT NULL CHECK (amount_kobo >= 0),
        exchange_order_id INTEGER REFERENCES orders(id)
      );
      CREATE INDEX order_undos_order ON order_undos(order_id);
      CREATE TABLE order_cancelled_seats (
        order_id INTEGER NOT NULL REFERENCES orders(id),
        seat TEXT NOT NULL,
        undo_id INTEGER NOT NULL REFERENCES order_undos(id),
        PRIMARY KEY (order_id, seat)
      );
      CREATE TABLE order_refunds (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        refund_no TEXT NOT NULL UNIQUE,
        undo_id INTEGER NOT NULL REFERENCES order_undos(id),
        order_id INTEGER NOT NULL REFERENCES orders(id),
        tender TEXT NOT NULL CHECK (tender IN ('cash', 'card')),
        amount_kobo INTEGER NOT NULL CHECK (amount_kobo > 0),
        at INTEGER NOT NULL,
        returned_how TEXT CHECK (returned_how IN ('provider-reversal', 'bank-transfer', 'cash')),
        returned_reference TEXT,
        returned_by TEXT,
        returned_at INTEGER
      );
      CREATE INDEX order_refunds_order ON order_refunds(order_id);
      CREATE INDEX order_refunds_at ON order_refunds(at);
      CREATE INDEX order_refunds_returned_at ON order_refunds(returned_at);
    `,
  },
  {
    // An exchange (docs/refunds.md, "Exchange"): the new sale (order_id) linked to the sale whose
    // tickets it replaces (from_order_id), the moved seats, the credit (and the tenders of the old sale
    // it came from, card first: a cancel of the new sale gives it back by them), the refund owed when
    // the new tickets cost less, who approved and why. waiting: the new sale's difference not yet paid (the
    // old seats still the customer's, the new ones held by it). done: the old seats cancelled in the
    // transaction that made the new sale paid. failed: the new sale failed, nothing moved.
    name: 'orders-010-exchange-links',
    sql: `
      CREATE TABLE order_exchanges (
        order_id INTEGER PRIMARY KEY REFERENCES orders(id),
        from_order_id INTEGER NOT NULL REFERENCES orders(id),
        seats TEXT NOT NULL,
        credit_kobo INTEGER NOT NULL CHECK (credit_kobo >= 0),
        credit_card_kobo INTEGER NOT NULL CHECK (credit_card_kobo >= 0),
        credit_cash_kobo INTEGER NOT NULL CHECK (credit_cash_kobo >= 0),
        refund_kobo INTEGER NOT NULL CHECK (refund_kobo >= 0),
        state TEXT NOT NULL CHECK (state IN ('waiting', 'done', 'failed')),
        reason TEXT NOT NULL,
        note TEXT NOT NULL,
        approved_json TEXT NOT NULL,
        cashier TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        settled_at INTEGER
      );
      CREATE INDEX order_exchanges_from ON order_exchanges(from_order_id);
    `,
  },
];
