// Journal sync: each counter's events, stored idempotently by (counter, seq). A batch must continue
// the journal without a gap; a repeated event changes nothing; a different event under a sequence
// number already held is refused (it would mean the counter's journal forked).
import type { SyncEvent } from '../../shared/hub-contract';
import type { HubDb } from '../db/adapter';
import { num } from '../db/adapter';
import { fail } from '../errors';
import { projectEvents } from './projections';
import { foreignKeys, recordRefused } from './code-owners';
import { catchUpClaimant, claimsShared } from './claims';
import { releaseHeld } from './quarantine';
import { afterSaleKeysOf, projectAfterSale } from './after-sale';

/**
 * Ownership of an order (where its notifications go) is the counter that created it: its
 * order.created or topup.submitted names the reference (and a provider order number already known).
 * A later status may add the provider order number only for a reference this counter owns. A
 * generated sale number or top-up reference (COU1-251125-0001, COU1-T251125-0001) starts with the
 * code of the counter that made it, which the Hub knows from the name it enrolled under: a key
 * starting with another live counter's code, in any field (the reference, or an orderNo of a
 * created or a status event), is not entered (code-owners.ts), so a counter cannot claim another's
 * next, predictable reference before it is made; the events are stored all the same (the journal
 * keeps syncing) and the refused key is kept for Needs attention. Any other key (a provider order number, which the Hub
 * cannot tie to a counter; a batch file's own reference) may be claimed by several counters: each
 * claimant gets its notifications (each checks the body itself), a claim made earlier or later by
 * another never takes them away, and the claim is logged with every claimant's id (SyncResult.sharedClaims).
 */
const createdKeysOf = (e: SyncEvent): string[] => {
  if (e.kind === 'order.created') return [e.payload.reference, e.payload.orderNo ?? ''].filter(Boolean);
  if (e.kind === 'topup.submitted') return [e.payload.reference];
  return [];
};
const learntKeysOf = (e: SyncEvent): { reference: string; key: string }[] =>
  (e.kind === 'order.status' || e.kind === 'topup.status') && e.payload.orderNo
    ? [{ reference: e.payload.reference, key: e.payload.orderNo }]
    : [];

interface SyncResult {
  lastSeq: number;
  stored: number;
  /** Order keys of this batch that carry another live counter's code (not entered; the route logs them, Needs attention lists them). */
  refusedClaims: string[];
  /** Keys this batch claimed that other counters claim too, with every claimant (this one included): all get their notifications. */
  sharedClaims: { key: string; counterIds: string[] }[];
  /** Counters given held notifications their orders' sync released (announce them to the relay). */
  released: string[];
}

/** How far ahead of the Hub's clock a counter's event may be (a counter's clock a little fast). */
const MAX_AHEAD_MS = 86_400_000;
/** The earliest time an event may carry: before it, the counter's clock was wrong. */
const EARLIEST_EVENT_MS = Date.UTC(2020, 0, 1);

/** Every time an event carries, within [2020, the Hub's clock + a day]: a time past it would break every screen that shows it. */
function checkTimes(events: SyncEvent[], now: number): void {
  for (const e of events) {
    const times = [e.at, ...(e.kind === 'zreport' ? [e.payload.from, e.payload.to] : [])];
    const bad = times.find((t) => t < EARLIEST_EVENT_MS || t > now + MAX_AHEAD_MS);
    if (bad !== undefined) {
      throw fail(
        'HUB_BAD_REQUEST',
        400,
        `Event number ${e.seq} carries a time (${bad}) before 2020 or more than a day ahead of the Hub's clock: check the counter's clock.`,
        { seq: e.seq, at: bad },
      );
    }
  }
}

export async function storeSyncBatch(
  db: HubDb,
  counterId: string,
  events: SyncEvent[],
  now: number,
): Promise<SyncResult> {
  const sorted = [...events].sort((a, b) => a.seq - b.seq);
  checkTimes(sorted, now);
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i]!.seq !== sorted[i - 1]!.seq + 1) {
      throw fail('HUB_BAD_REQUEST', 400, 'The events of one batch must have consecutive sequence numbers.', {
        after: sorted[i - 1]!.seq,
        got: sorted[i]!.seq,
      });
    }
  }
  let refusedClaims: string[] = [];
  let sharedClaims: SyncResult['sharedClaims'] = [];
  let released: string[] = [];
  return db.tx(async (q) => {
    // One sync of a counter at a time (its last_seq). No key update, not update: the foreign keys of
    // what others insert meanwhile for this counter (a webhook's delivery, its order claim: for key
    // share) need not wait for this whole transaction.
    const c = await q.query<{ last_seq: unknown; branch: string; name: string }>(
      'select last_seq, branch, name from counters where id = $1 for no key update',
      [counterId],
    );
    const last = num(c[0]!.last_seq);
    const old = sorted.filter((e) => e.seq <= last);
    const fresh = sorted.filter((e) => e.seq > last);
    if (old.length) {
      const same = await q.query<{ seq: unknown }>(
        `select j.seq from journal j join unnest($2::bigint[], $3::text[], $4::bigint[], $5::jsonb[]) as t(seq, kind, at, payload)
           on j.seq = t.seq and j.kind = t.kind and j.at = t.at and j.payload = t.payload
         where j.counter_id = $1`,
        [
          counterId,
          old.map((e) => e.seq),
          old.map((e) => e.kind),
          old.map((e) => e.at),
          old.map((e) => JSON.stringify(e.payload)),
        ],
      );
      if (same.length !== old.length) {
        const ok = new Set(same.map((r) => num(r.seq)));
        const bad = old.find((e) => !ok.has(e.seq))!;
        throw fail(
          'HUB_SYNC_CONFLICT',
          409,
          `The Hub already holds a different event under number ${bad.seq}. Tell the Hub administrator; do not resend.`,
          { seq: bad.seq, lastSeq: last },
        );
      }
    }
    if (fresh.length && fresh[0]!.seq !== last + 1) {
      throw fail(
        'HUB_SYNC_GAP',
        409,
        `Events are missing before number ${fresh[0]!.seq}: send from number ${last + 1}.`,
        { expectedSeq: last + 1, lastSeq: last },
      );
    }
    if (fresh.length) {
      await q.query(
        `insert into journal (counter_id, seq, kind, at, payload, received_at)
         select $1, t.seq, t.kind, t.at, t.payload, $6 from unnest($2::bigint[], $3::text[], $4::bigint[], $5::jsonb[]) as t(seq, kind, at, payload)`,
        [
          counterId,
          fresh.map((e) => e.seq),
          fresh.map((e) => e.kind),
          fresh.map((e) => e.at),
          fresh.map((e) => JSON.stringify(e.payload)),
          now,
        ],
      );
      // An order made with another counter's code is not this counter's: none of its keys is claimed;
      // nor is any key, in any field, made with another counter's code (the rest of the event is).
      const refOf = (e: SyncEvent) => (e.payload as { reference?: string }).reference ?? '';
      const learntAll = fresh.flatMap(learntKeysOf);
      const foreign = await foreignKeys(q, counterId, c[0]!.name, [
        ...new Set([
          ...fresh.flatMap(createdKeysOf),
          ...learntAll.map((x) => x.key),
          ...fresh.flatMap(afterSaleKeysOf),
        ]),
      ]);
      const created = [
        ...new Set(
          fresh
            .filter((e) => !foreign.has(refOf(e)))
            .flatMap(createdKeysOf)
            .filter((k) => !foreign.has(k)),
        ),
      ];
      await recordRefused(q, counterId, foreign, now);
      // Each insert also says which of its keys another counter holds (its reads do not see its own
      // rows): only those can be shared, so the shared claims are read for them alone (a batch of
      // 500 sales paid 2.4 ms for reading 1,000 keys nobody else had: the sync 11% slower than d48aa86).
      const contested = new Set<string>();
      const noteContested = (rows: { k: string }[]) => rows.forEach((r) => contested.add(r.k));
      if (created.length) {
        noteContested(
          await q.query<{ k: string }>(
            `with ins as (
               insert into order_owners (order_key, counter_id, registered_at) select k, $1, $2 from unnest($3::text[]) as k
               on conflict (order_key, counter_id) do nothing)
             select distinct o.order_key as k from order_owners o where o.order_key = any($3::text[]) and o.counter_id <> $1`,
            [counterId, now, created],
          ),
        );
      }
      // After the created keys: a status in the same batch as its order.created finds the reference owned.
      const learnt = learntAll.filter((x) => !foreign.has(x.key));
      if (learnt.length) {
        noteContested(
          await q.query<{ k: string }>(
            `with ins as (
               insert into order_owners (order_key, counter_id, registered_at)
               select distinct t.key, $1::text, $2::bigint from unnest($3::text[], $4::text[]) as t(reference, key)
                where exists (select 1 from order_owners o where o.order_key = t.reference and o.counter_id = $1)
               on conflict (order_key, counter_id) do nothing)
             select distinct o.order_key as k from order_owners o where o.order_key = any($4::text[]) and o.counter_id <> $1`,
            [counterId, now, learnt.map((x) => x.reference), learnt.map((x) => x.key)],
          ),
        );
      }
      const claimed = [...new Set([...created, ...learnt.map((x) => x.key)])];
      const maybeShared = claimed.filter((k) => contested.has(k));
      if (maybeShared.length) sharedClaims = await claimsShared(q, counterId, maybeShared, now);
      refusedClaims = [...foreign.keys()];
      // Notifications held for these orders go to their claimants now (same transaction as the claim),
      // and what already went to another claimant of an order number this counter now claims too.
      if (claimed.length)
        released = [
          ...new Set([
            ...(await releaseHeld(q, now, { counterId, keys: claimed })),
            ...(await catchUpClaimant(q, counterId, claimed, now)),
          ]),
        ];
      await q.query('update counters set last_seq = $2 where id = $1', [counterId, fresh[fresh.length - 1]!.seq]);
      // The dashboard's query tables move with the journal: same transaction, only new events.
      await projectEvents(q, counterId, c[0]!.branch, fresh, now);
      // A cancel, a refund returned, a complaint case: of this counter's own orders only (after-sale.ts).
      await projectAfterSale(q, counterId, c[0]!.branch, fresh, new Set(foreign.keys()), now);
    }
    return {
      lastSeq: fresh.length ? fresh[fresh.length - 1]!.seq : last,
      stored: fresh.length,
      refusedClaims,
      sharedClaims,
      released,
    };
  });
}

export async function readJournal(db: HubDb, counterId: string): Promise<SyncEvent[]> {
  const rows = await db.query<Record<string, unknown>>(
    'select seq, kind, at, payload from journal where counter_id = $1 order by seq',
    [counterId],
  );
  return rows.map(
    (r) =>
      ({
        seq: num(r.seq),
        kind: r.kind,
        at: num(r.at),
        payload: typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload,
      }) as SyncEvent,
  );
}
