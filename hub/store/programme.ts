// The branches' programmes as the Hub keeps them (tables programme_*, one copy per branch with its
// version) and a show's fill for the dashboard (the seat check reads a show's taken seats:
// seat-taken.ts). A programme is replaced whole in one transaction that also bumps the branch's
// version and NOTIFYs every Hub instance, whose relay streams tell that branch's counters
// (`event: programme`).
import type { DashProgrammeView, HubProgramme, ShowFill, ShowsView } from '../../shared/hub-programme-contract';
import type { Programme } from '../../shared/programme';
import { showFillTotals } from '../../shared/ledger-day';
import type { HubDb, SqlRunner } from '../db/adapter';
import { num, numOrNull } from '../db/adapter';
import { RELAY_CHANNEL } from './notifications';
import { Where, type Scope } from './scope';

/** Payload prefix on RELAY_CHANNEL: `programme:<version>:<branch>`, a branch's programme changed. */
const PROGRAMME_PREFIX = 'programme:';
export const programmeNotice = (branch: string, version: number) => `${PROGRAMME_PREFIX}${version}:${branch}`;
export function readProgrammeNotice(payload: string): { branch: string; version: number } | null {
  const m = /^programme:(\d+):(.+)$/s.exec(payload);
  return m ? { version: Number(m[1]), branch: m[2]! } : null;
}

type Row = Record<string, unknown>;

/** Replaces the branch's programme; resolves to its new version. */
export async function setProgramme(db: HubDb, branch: string, p: Programme, by: string, now: number): Promise<number> {
  return db.tx(async (q) => {
    // The version row is the branch's lock: two managers saving at once are serialised here.
    const v = await q.query<{ version: unknown }>(
      `insert into programme_versions (branch, version, updated_at, updated_by) values ($1, 1, $2, $3)
       on conflict (branch) do update set version = programme_versions.version + 1, updated_at = excluded.updated_at, updated_by = excluded.updated_by
       returning version`,
      [branch, now, by],
    );
    const version = num(v[0]!.version);
    for (const t of ['programme_ticket_types', 'programme_shows', 'programme_films', 'programme_screens'])
      await q.query(`delete from ${t} where branch = $1`, [branch]);
    if (p.films.length) {
      await q.query(
        `insert into programme_films (branch, position, name, title, rating) select $1, t.i, t.name, t.title, t.rating
           from unnest($2::int[], $3::text[], $4::text[], $5::text[]) as t(i, name, title, rating)`,
        [
          branch,
          p.films.map((_, i) => i),
          p.films.map((f) => f.name),
          p.films.map((f) => f.title),
          p.films.map((f) => f.rating),
        ],
      );
    }
    if (p.screens.length) {
      await q.query(
        'insert into programme_screens (branch, position, name) select $1, t.i, t.name from unnest($2::int[], $3::text[]) as t(i, name)',
        [branch, p.screens.map((_, i) => i), p.screens],
      );
    }
    if (p.shows.length) {
      await q.query(
        `insert into programme_shows (branch, position, film, screen, show_date, show_time) select $1, t.i, t.film, t.screen, t.d, t.tm
           from unnest($2::int[], $3::text[], $4::text[], $5::text[], $6::text[]) as t(i, film, screen, d, tm)`,
        [
          branch,
          p.shows.map((_, i) => i),
          p.shows.map((s) => s.film),
          p.shows.map((s) => s.screen),
          p.shows.map((s) => s.date),
          p.shows.map((s) => s.time),
        ],
      );
      const types = p.shows.flatMap((s, i) => s.ticketTypes.map((t, j) => ({ i, j, ...t })));
      await q.query(
        `insert into programme_ticket_types (branch, show_position, position, name, price_kobo, booking_fee_kobo) select $1, t.i, t.j, t.name, t.price, t.fee
           from unnest($2::int[], $3::int[], $4::text[], $5::bigint[], $6::bigint[]) as t(i, j, name, price, fee)`,
        [
          branch,
          types.map((t) => t.i),
          types.map((t) => t.j),
          types.map((t) => t.name),
          types.map((t) => t.priceKobo),
          types.map((t) => t.bookingFeeKobo),
        ],
      );
    }
    // Delivered after commit, to every instance (each tells its own streams of this branch).
    await q.query('select pg_notify($1, $2)', [RELAY_CHANNEL, programmeNotice(branch, version)]);
    return version;
  });
}

export async function programmeVersion(q: SqlRunner, branch: string): Promise<number> {
  const r = await q.query<{ version: unknown }>('select version from programme_versions where branch = $1', [branch]);
  return r[0] ? num(r[0].version) : 0;
}

/** The branch's programme (version 0 and null while none was set). One read snapshot: a save under way is not half seen. */
export async function readProgramme(db: HubDb, branch: string): Promise<HubProgramme & { updatedBy: string | null }> {
  return db.tx(async (q) => {
    await q.query('set transaction isolation level repeatable read');
    const v = await q.query<Row>('select version, updated_at, updated_by from programme_versions where branch = $1', [
      branch,
    ]);
    if (!v[0]) return { branch, version: 0, updatedAt: null, updatedBy: null, programme: null };
    const films = await q.query<Row>(
      'select name, title, rating from programme_films where branch = $1 order by position',
      [branch],
    );
    const screens = await q.query<Row>('select name from programme_screens where branch = $1 order by position', [
      branch,
    ]);
    const shows = await q.query<Row>(
      'select position, film, screen, show_date, show_time from programme_shows where branch = $1 order by position',
      [branch],
    );
    const types = await q.query<Row>(
      'select show_position, name, price_kobo, booking_fee_kobo from programme_ticket_types where branch = $1 order by show_position, position',
      [branch],
    );
    const byShow = new Map<number, { name: string; priceKobo: number; bookingFeeKobo: number }[]>();
    for (const t of types) {
      const k = num(t.show_position);
      const list = byShow.get(k) ?? [];
      list.push({ name: String(t.name), priceKobo: num(t.price_kobo), bookingFeeKobo: num(t.booking_fee_kobo) });
      byShow.set(k, list);
    }
    return {
      branch,
      version: num(v[0].version),
      updatedAt: numOrNull(v[0].updated_at),
      updatedBy: v[0].updated_by === null ? null : String(v[0].updated_by),
      programme: {
        films: films.map((f) => ({ name: String(f.name), title: String(f.title), rating: String(f.rating) })),
        screens: screens.map((s) => String(s.name)),
        shows: shows.map((s) => ({
          film: String(s.film),
          screen: String(s.screen),
          date: String(s.show_date),
          time: String(s.show_time),
          ticketTypes: byShow.get(num(s.position)) ?? [],
        })),
      },
    };
  });
}

export function programmeView(p: HubProgramme & { updatedBy: string | null }): DashProgrammeView {
  const dates = (p.programme?.shows ?? []).map((s) => s.date).sort();
  return {
    ...p,
    films: p.programme?.films.length ?? 0,
    screens: p.programme?.screens.length ?? 0,
    shows: p.programme?.shows.length ?? 0,
    firstDate: dates[0] ?? null,
    lastDate: dates[dates.length - 1] ?? null,
  };
}

/** Every show of a Lagos day within the scope: those in the programme (sold or not) and any other sold that day. Real sales only. */
export async function showFills(q: SqlRunner, scope: Scope, day: string, branchFilter?: string): Promise<ShowsView> {
  const w = new Where(scope, 'o.branch', branchFilter);
  w.and(`o.show_date = ${w.p(day)}`)
    .and('not o.practice')
    .and('o.film_name is not null and o.show_time is not null');
  // A sale inside the card total (in_card, by the ledger's row: shared/ledger-row.ts): paid, or paid
  // after closing and kept; its show line counts its amount and tickets, as the ledger's does.
  const sold = await q.query<Row>(
    `select o.branch, min(o.film_name) as film_name, min(o.film_title) as film_title, o.show_time,
            coalesce(sum(o.tickets) filter (where o.in_card), 0) as seats_sold, count(*) filter (where o.in_card) as paid_count,
            coalesce(sum(o.amount_kobo) filter (where o.in_card), 0) as takings, coalesce(sum(o.tickets) filter (where o.outcome = 'open'), 0) as seats_held
       from dash_orders o ${w.sql()}
      group by o.branch, lower(o.film_name), o.show_time`,
    w.params,
  );
  const pw = new Where(scope, 's.branch', branchFilter);
  pw.and(`s.show_date = ${pw.p(day)}`);
  const planned = await q.query<Row>(
    `select s.branch, s.film, f.title, s.screen, s.show_time from programme_shows s
       left join programme_films f on f.branch = s.branch and lower(f.name) = lower(s.film) ${pw.sql()}`,
    pw.params,
  );
  const key = (branch: unknown, film: unknown, time: unknown) =>
    `${String(branch)}\u0000${String(film).toLowerCase()}\u0000${String(time)}`;
  const shows = new Map<string, ShowFill>();
  for (const p of planned) {
    const k = key(p.branch, p.film, p.show_time);
    if (shows.has(k)) continue; // one film at one time on two screens: the sales cannot tell them apart
    shows.set(k, {
      branch: String(p.branch),
      filmName: String(p.film),
      filmTitle: p.title === null ? null : String(p.title),
      screen: String(p.screen),
      date: day,
      time: String(p.show_time),
      inProgramme: true,
      seatsSold: 0,
      paidCount: 0,
      cardTotalKobo: 0,
      seatsHeld: 0,
    });
  }
  for (const s of sold) {
    const k = key(s.branch, s.film_name, s.show_time);
    const base = shows.get(k) ?? {
      branch: String(s.branch),
      filmName: String(s.film_name),
      filmTitle: s.film_title === null ? null : String(s.film_title),
      screen: null,
      date: day,
      time: String(s.show_time),
      inProgramme: false,
      seatsSold: 0,
      paidCount: 0,
      cardTotalKobo: 0,
      seatsHeld: 0,
    };
    shows.set(k, {
      ...base,
      seatsSold: num(s.seats_sold),
      paidCount: num(s.paid_count),
      cardTotalKobo: num(s.takings),
      seatsHeld: num(s.seats_held),
    });
  }
  const list = [...shows.values()].sort(
    (a, b) => a.time.localeCompare(b.time) || a.branch.localeCompare(b.branch) || a.filmName.localeCompare(b.filmName),
  );
  return {
    day,
    shows: list,
    totals: showFillTotals(list),
  };
}
