// The Hub chaos run's seat race: beside the sales, the counters race for a small screen's seats
// through the Hub (the counter link's own hubSeatHolds, over each chaos counter's cut-able proxy, so
// Hub kills and cuts hit them). Each chaos counter has a racer of its own on the Hub (enrolled by
// setUp, with the screen's programme and layout set as head office: a hold names a programme show
// with a seat map), because a seat is sold only from a counter's synced journal: a sale whose hold
// the Hub answered `held` is synced paid by its racer's journal (retried until the Hub takes it) or
// released; `unchecked` is a sale made without the Hub (on the counter's own knowledge), `taken` is
// refused before the customer is charged. A new show every 30 sales keeps the race going through
// the whole run (and its kills). Verdict: no seat of a show sold to two sales that the Hub held
// (seatsDoubleSold, must be 0), and every such sale is in the Hub's database as sold after the run
// (seatsLost, must be 0).
import { setTimeout as delay } from 'node:timers/promises';
import { backoffWithJitter, type BackoffTuning } from '../../core/lib';
import { createHubClient, type HubConnection } from '../../core/hub-link';
import { hubSeatHolds } from '../../core/hub-link/link-seat-holds';
import type { HubDb } from '../../hub/db/adapter';
import { HUB_SEATS_SETTLE_PATH, SeatSettleResponseSchema } from '../../shared/hub-seats-contract';
import { memoryLogger } from '../../shared/logger';
import { showKey } from '../../shared/programme';
import type { SeatHolds } from '../../shared/seats';
import type { createRng } from '../helpers/chaos-random';
import { CounterJournal } from '../hub/helpers/dashboard-client';
import { dashboardSeatMap, plainLayout, programmeOf, soldInJournal } from '../hub/helpers/seat-show';
import { post } from '../hub/helpers/hub-harness';

/** A settle or a journal sync refused while the Hub is down or the link cut: tried again at 100 ms, doubling to 2 s. */
const SETTLE_BACKOFF: BackoffTuning = { baseMs: 100, maxMs: 2_000 };

const SHOW = { filmName: 'Chaos', filmTitle: 'CHAOS', date: '2026-11-27', time: '21:00', screen: 'Small' };
/** Sales per show: the race moves to the next show (a new minute) after these, so it goes on through the whole run. */
const PER_SHOW = 30;
/** A small screen: 3 rows of 8. */
const SEATS = ['A', 'B', 'C'].flatMap((r) => Array.from({ length: 8 }, (_, i) => `${r}${i + 1}`));
/** The shows of the race: one a minute from 21:00 to 21:59. */
const SHOWS = Array.from({ length: 60 }, (_, m) => ({ ...SHOW, time: `21:${String(m).padStart(2, '0')}` }));

export interface SeatRaceCounter {
  name: string;
  /** Its proxy's port (its way to the Hub, cut-able): its racer goes the same way. */
  proxyPort: number;
}

interface Racer {
  conn: HubConnection;
  journal: CounterJournal;
}

export interface SeatRaceResult {
  attempts: number;
  held: number;
  taken: number;
  /** Holds the Hub refused (rate): the sale is not charged. */
  refused: number;
  unchecked: number;
  /** Seats sold to two sales the Hub held: must be 0. */
  seatsDoubleSold: number;
  /** Sales the Hub held and the run settled sold, not sold in the Hub's database: must be 0. */
  seatsLost: number;
}

export class SeatRace {
  private readonly client = createHubClient();
  private readonly logger = memoryLogger();
  private readonly pending = new Set<Promise<void>>();
  private n = 0;
  private readonly r: Omit<SeatRaceResult, 'seatsDoubleSold' | 'seatsLost'> = {
    attempts: 0,
    held: 0,
    taken: 0,
    refused: 0,
    unchecked: 0,
  };
  /** Sales the Hub held and the run settled sold: order key → its show key and seats. */
  private readonly sold = new Map<string, { key: string; seats: string[] }>();

  constructor(
    private readonly counters: SeatRaceCounter[],
    private readonly rng: ReturnType<typeof createRng>,
  ) {}

  private readonly racers = new Map<string, Racer>();

  /**
   * Before the run: the race's shows and the Small screen's layout in the branch's programme (set as
   * head office, with the Hub's setup link), and a racer enrolled on the Hub for each counter.
   */
  async setUp(hub: { url: string; output(): string; issueCode(): Promise<string> }, branch: string): Promise<void> {
    await dashboardSeatMap(hub, branch, programmeOf(SHOWS), plainLayout(SHOW.screen, 3, 8));
    for (const [i, c] of this.counters.entries()) {
      const e = await post(`${hub.url}/api/v1/enroll`, {
        code: await hub.issueCode(),
        counterName: `Seat Racer ${i + 1}`,
        branch,
        appVersion: '0.1.0',
      });
      if (e.status !== 200) throw new Error(`seat race: enroll ${e.status} ${JSON.stringify(e.json)}`);
      const url = `http://127.0.0.1:${c.proxyPort}`;
      const credential = String(e.json.credential);
      this.racers.set(c.name, {
        conn: { url, counterId: String(e.json.counterId), credential, branch },
        journal: new CounterJournal(url, credential),
      });
    }
  }

  private holdsOf(c: SeatRaceCounter): { holds: SeatHolds; conn: HubConnection; journal: CounterJournal } {
    const { conn, journal } = this.racers.get(c.name)!;
    const holds = hubSeatHolds({
      connection: () => conn,
      client: this.client,
      logger: this.logger,
      holdMs: () => 600_000,
    });
    return { holds, conn, journal };
  }

  /** One sale of 1 or 2 seats on a random counter, in the background. */
  step(): void {
    const c = this.counters[this.rng.int(0, this.counters.length - 1)]!;
    const first = this.rng.int(0, SEATS.length - 1);
    const seats = [...new Set([SEATS[first]!, SEATS[Math.min(SEATS.length - 1, first + this.rng.int(0, 1))]!])];
    const pay = this.rng.chance(0.8);
    const orderKey = `SEAT-${c.name.replace(/\W/g, '')}-${++this.n}`;
    const show = { ...SHOW, time: `21:${String(Math.floor(this.n / PER_SHOW) % 60).padStart(2, '0')}` };
    const p = this.sell(c, show, orderKey, seats, pay).finally(() => this.pending.delete(p));
    this.pending.add(p);
  }

  private async sell(
    c: SeatRaceCounter,
    show: typeof SHOW,
    orderKey: string,
    seats: string[],
    pay: boolean,
  ): Promise<void> {
    const { holds, conn, journal } = this.holdsOf(c);
    this.r.attempts += 1;
    const out = await holds.hold({ orderKey, showKey: showKey(show), show, seats, practice: false });
    this.r[out.kind] += 1;
    if (out.kind !== 'held') return;
    // Paid: its racer's journal syncs it (the only way a seat is sold); not paid: released. Either
    // reaches the Hub in the end: while the Hub is killed or the link cut (or an earlier sale's
    // batch of the same journal has not landed yet), it is tried again after the link's backoff.
    const events = pay ? soldInJournal(journal, orderKey, seats, 'paid', show) : [];
    for (let failures = 1; ; failures += 1) {
      try {
        if (pay) await journal.sync(events);
        else
          await this.client.call(
            conn,
            'POST',
            HUB_SEATS_SETTLE_PATH,
            { orderKey, outcome: 'released' },
            SeatSettleResponseSchema,
            { timeoutMs: 2_000 },
          );
        break;
      } catch {
        await delay(backoffWithJitter(failures, SETTLE_BACKOFF, Math.random));
      }
    }
    if (pay) this.sold.set(orderKey, { key: showKey(show), seats });
  }

  async drain(): Promise<void> {
    while (this.pending.size) await Promise.allSettled([...this.pending]);
  }

  /** The verdict against the Hub's database (read after the run). */
  async verdict(db: HubDb): Promise<SeatRaceResult> {
    const bySeat = new Map<string, number>();
    for (const { key, seats } of this.sold.values())
      for (const s of seats) bySeat.set(`${key}|${s}`, (bySeat.get(`${key}|${s}`) ?? 0) + 1);
    const seatsDoubleSold = [...bySeat.values()].filter((n) => n > 1).length;
    const rows = await db.query<{ order_key: string; show_key: string; seat: string }>(
      "select order_key, show_key, seat from seat_holds where order_key like 'SEAT-%' and state = 'sold'",
    );
    const inDb = new Set(rows.map((r) => `${r.order_key}|${r.show_key}|${r.seat}`));
    let seatsLost = 0;
    for (const [k, { key, seats }] of this.sold)
      for (const s of seats) if (!inDb.has(`${k}|${key}|${s}`)) seatsLost += 1;
    return { ...this.r, seatsDoubleSold, seatsLost };
  }
}
