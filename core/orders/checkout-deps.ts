// What the checkout takes (CheckoutDeps), what a sale may ask of the door (SellOptions), and the
// settings a sale is checked against.
import type { BasketSources } from './basket-intake';
import type { SeatHolds } from '../../shared/seats';
import type { SeatPlanner } from './seat-holding';
import type { Clock } from '../../shared/clock';
import type { Db } from '../db';
import type { JournalSink } from '../journal-sink';
import type { Logger } from '../../shared/logger';
import type { PosClient } from '../provider';
import type { Timers } from '../lib';
import type { CheckoutTuningInput } from './checkout-tuning';
import type { SaleSettings } from './sale-intake';
import type { WhenBusy } from './charge-guard';
import type { RetryRule } from './closed-check';
import type { RelayHealthFeed } from './relay-follower';
import type { UndoDeps } from './undo-cancel';

export type CheckoutSettings = SaleSettings;

export interface SellOptions {
  /** Runs inside the transaction that records the order (with its id and outOrderNo): a link written by another owner, all or nothing with the sale. */
  alongside?: (id: number, outOrderNo: string) => void;
  /** A busy terminal: refuse the sale (TERMINAL_BUSY, the default) or queue it until the terminal is free (a box office's charge). */
  whenBusy?: WhenBusy;
  /** The cashier's doors only: the sale number the cashier chose to leave waiting on the terminal. */
  besideWaiting?: string | undefined;
  /** The show of the programme the door sold (its showKey) and the ticket type: the seat rules find it from the sale otherwise. */
  show?: { showKey?: string; ticketType?: string };
  /** An exchange's new sale (exchange.ts): the credit of the tickets it replaces pays its total first; the tender pays the difference. */
  exchange?: { creditKobo: number };
}

export interface CheckoutDeps {
  db: Db;
  /** The POS client, or a getter (the active profile may change); a getter may throw PROVIDER_NOT_CONFIGURED. */
  pos: PosClient | (() => PosClient);
  clock: Clock;
  logger: Logger;
  settings: () => CheckoutSettings;
  /** [0, 1); jitter of the retry backoff. */
  random?: () => number;
  timers?: Timers;
  tuning?: CheckoutTuningInput;
  /** Where every journal event also goes, in its transaction (the Hub's outbox); none when absent. */
  journalSink?: JournalSink;
  /** Is a shift open now? Every sale needs one, and a queued sale is sent only during one (absent: not asked). */
  shiftOpen?: () => boolean;
  /**
   * The terminal the counter charges on now (the terminal link's). A queued sale is bound to a terminal
   * when it is sent: it goes only while this is its terminal, waits while it is null, and is ended
   * (TERMINAL_CHANGED) once it names another. Absent: not checked.
   */
  terminalSn?: () => string | null;
  /**
   * The seats of a sale of a show with a seat map (docs/seat-maps.md): the seat rules (the
   * programme's; absent: seats are not checked) and the seat holds across counters, asked per sale
   * (the Hub's when the counter has one; absent: this counter's own sales only).
   */
  seats?: { planner?: SeatPlanner; holds?: () => SeatHolds };
  /**
   * Which queued orders give way to the cashier's own sale (the box-office integrations: their
   * charges). They never make the cashier's doors TERMINAL_BUSY, and the cashier's queued sales go
   * first. Absent: none.
   */
  yieldRule?: (orderId: number) => boolean;
  /** Who keeps an order from Try again (the box-office integrations: the box office asks again). Absent: no one. */
  retryRule?: RetryRule;
  /**
   * The Hub's relay stream (the Hub link's while it runs). While it is healthy a waiting order is
   * checked a few times over its life; when it drops, every waiting order is checked within a
   * second and the fast schedule returns. Absent: no Hub, the fast schedule.
   */
  relayHealth?: RelayHealthFeed;
  /** Where a basket's prices come from (the programme's shows, the branch's catalogue). Absent: baskets are refused for want of both. */
  basket?: BasketSources;
  /**
   * What an undo after the sale needs (docs/refunds.md): the admin PIN's check, the Hub's approval
   * codes, the shift open at a moment. Absent: every undo is refused (no PIN can be checked).
   */
  undo?: UndoDeps;
}
