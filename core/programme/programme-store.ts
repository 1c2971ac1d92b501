// The owner of the programme's tables: the copy in use (replaced whole, in one transaction), the
// shows as the Sell screen lists them, and the sales made from it (the screen and ticket type each
// order was sold at, for its receipt; written in the order's own transaction, paid or not is the order's).
import { lagosInstant } from '../../shared/time';
import {
  showKey,
  type Programme,
  type ProgrammeSource,
  type ProgrammeSummary,
  type ShowView,
  type TicketType,
} from '../../shared/programme';
import { ProgrammeSourceSchema } from '../../shared/programme';
import type { Db } from '../db';

interface ShowRow {
  id: number;
  key: string;
  filmName: string;
  filmTitle: string;
  rating: string;
  screen: string;
  date: string;
  time: string;
  startsAt: number;
}

const SHOW_SELECT = `SELECT s.id, s.show_key AS key, f.name AS filmName, f.title AS filmTitle, f.rating, sc.name AS screen, s.show_date AS date, s.show_time AS time, s.starts_at AS startsAt
  FROM programme_shows s JOIN programme_films f ON f.id = s.film_id JOIN programme_screens sc ON sc.id = s.screen_id`;

export class ProgrammeStore {
  constructor(private readonly db: Db) {}

  source(): ProgrammeSource | null {
    const row = this.db.prepare('SELECT source_json AS json FROM programme_source WHERE id = 1').get() as
      { json: string } | undefined;
    if (!row) return null;
    const parsed = ProgrammeSourceSchema.safeParse(JSON.parse(row.json));
    return parsed.success ? parsed.data : null;
  }

  /** The Hub version of the copy in use, or null when it did not come from the Hub. */
  hubVersion(): number | null {
    const row = this.db.prepare('SELECT hub_version AS v FROM programme_source WHERE id = 1').get() as
      { v: number | null } | undefined;
    return row?.v ?? null;
  }

  /** Replaces the whole copy: all of it or, on any failure, none of it. */
  replace(source: ProgrammeSource, p: Programme, now: number): void {
    this.db.transaction(() => {
      this.db.exec(
        'DELETE FROM programme_ticket_types; DELETE FROM programme_shows; DELETE FROM programme_films; DELETE FROM programme_screens;',
      );
      const film = this.db.prepare('INSERT INTO programme_films (name, title, rating) VALUES (?, ?, ?)');
      const filmIds = new Map<string, number>();
      for (const f of p.films)
        filmIds.set(f.name.toLowerCase(), Number(film.run(f.name, f.title, f.rating).lastInsertRowid));
      const screen = this.db.prepare('INSERT INTO programme_screens (name) VALUES (?)');
      const screenIds = new Map<string, number>();
      for (const s of p.screens) screenIds.set(s.toLowerCase(), Number(screen.run(s).lastInsertRowid));
      const show = this.db.prepare(
        'INSERT INTO programme_shows (show_key, film_id, screen_id, show_date, show_time, starts_at) VALUES (?, ?, ?, ?, ?, ?)',
      );
      const type = this.db.prepare(
        'INSERT INTO programme_ticket_types (show_id, position, name, price_kobo, booking_fee_kobo) VALUES (?, ?, ?, ?, ?)',
      );
      for (const s of p.shows) {
        const filmId = filmIds.get(s.film.toLowerCase());
        const screenId = screenIds.get(s.screen.toLowerCase());
        if (filmId === undefined || screenId === undefined)
          throw new Error(`show ${showKey(s)} names an unknown film or screen`);
        const id = Number(
          show.run(showKey(s), filmId, screenId, s.date, s.time, lagosInstant(s.date, s.time)).lastInsertRowid,
        );
        s.ticketTypes.forEach((t, i) => type.run(id, i, t.name, t.priceKobo, t.bookingFeeKobo));
      }
      this.db
        .prepare(
          `INSERT INTO programme_source (id, kind, source_json, hub_version, replaced_at) VALUES (1, ?, ?, ?, ?)
           ON CONFLICT(id) DO UPDATE SET kind = excluded.kind, source_json = excluded.source_json, hub_version = excluded.hub_version, replaced_at = excluded.replaced_at`,
        )
        .run(source.kind, JSON.stringify(source), source.kind === 'hub' ? source.version : null, now);
    })();
  }

  summary(): ProgrammeSummary {
    const count = (table: string) => (this.db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
    const range = this.db
      .prepare('SELECT MIN(show_date) AS first, MAX(show_date) AS last FROM programme_shows')
      .get() as { first: string | null; last: string | null };
    return {
      source: this.source(),
      films: count('programme_films'),
      screens: count('programme_screens'),
      shows: count('programme_shows'),
      firstDate: range.first,
      lastDate: range.last,
    };
  }

  /** Shows starting at or after `from` (ms), soonest first, with their ticket types in the programme's order. */
  showsFrom(from: number, limit: number): (ShowRow & { ticketTypes: TicketType[] })[] {
    const rows = this.db
      .prepare(`${SHOW_SELECT} WHERE s.starts_at >= ? ORDER BY s.starts_at, sc.name LIMIT ?`)
      .all(from, limit) as ShowRow[];
    return rows.map((r) => ({ ...r, ticketTypes: this.ticketTypes(r.id) }));
  }

  show(id: number): (ShowRow & { ticketTypes: TicketType[] }) | null {
    const row = this.db.prepare(`${SHOW_SELECT} WHERE s.id = ?`).get(id) as ShowRow | undefined;
    return row ? { ...row, ticketTypes: this.ticketTypes(row.id) } : null;
  }

  /** The programme's screens, as it names them. */
  screens(): string[] {
    return (this.db.prepare('SELECT name FROM programme_screens ORDER BY name').all() as { name: string }[]).map(
      (r) => r.name,
    );
  }

  /** The keys of every show on a screen (any case). */
  showsOfScreen(screen: string): string[] {
    return (
      this.db
        .prepare(
          'SELECT s.show_key AS key FROM programme_shows s JOIN programme_screens sc ON sc.id = s.screen_id WHERE sc.name = ? COLLATE NOCASE',
        )
        .all(screen.trim()) as { key: string }[]
    ).map((r) => r.key);
  }

  /** The show of this key (showKey()), or null. */
  showByKey(key: string): (ShowRow & { ticketTypes: TicketType[] }) | null {
    const row = this.db.prepare(`${SHOW_SELECT} WHERE s.show_key = ?`).get(key) as ShowRow | undefined;
    return row ? { ...row, ticketTypes: this.ticketTypes(row.id) } : null;
  }

  /** The shows of a film at a date and time (a sale names no screen: one, or one per screen playing it). */
  showsOfFilmAt(film: string, date: string, time: string): (ShowRow & { ticketTypes: TicketType[] })[] {
    const rows = this.db
      .prepare(
        `${SHOW_SELECT} WHERE f.name = ? COLLATE NOCASE AND s.show_date = ? AND s.show_time = ? ORDER BY sc.name`,
      )
      .all(film.trim(), date, time) as ShowRow[];
    return rows.map((r) => ({ ...r, ticketTypes: this.ticketTypes(r.id) }));
  }

  private ticketTypes(showId: number): TicketType[] {
    return this.db
      .prepare(
        'SELECT name, price_kobo AS priceKobo, booking_fee_kobo AS bookingFeeKobo FROM programme_ticket_types WHERE show_id = ? ORDER BY position',
      )
      .all(showId) as TicketType[];
  }

  /** In the order's own transaction (the checkout's `alongside`): both or neither. */
  recordSale(s: {
    orderId: number;
    showKey: string;
    filmName: string;
    ticketType: string;
    tickets: number;
    at: number;
    screen?: string;
  }): void {
    this.db
      .prepare(
        'INSERT INTO programme_sales (order_id, show_key, film_name, ticket_type, tickets, created_at, screen) VALUES (?, ?, ?, ?, ?, ?, ?)',
      )
      .run(s.orderId, s.showKey, s.filmName, s.ticketType, s.tickets, s.at, s.screen ?? null);
  }

  /** The screen and ticket type of an order sold from the programme (null for a show typed by hand). */
  saleOf(orderId: number): { screen: string | null; ticketType: string } | null {
    const r = this.db
      .prepare('SELECT screen, ticket_type AS ticketType FROM programme_sales WHERE order_id = ?')
      .get(orderId) as { screen: string | null; ticketType: string } | undefined;
    return r ?? null;
  }
}

/**
 * The ticket type a picked show starts on: the programme's first (head office lists the usual one
 * first). What was sold before does not count: a Child sale must never make the next Adult a Child.
 */
export function defaultTicketType(types: readonly TicketType[]): string {
  return types[0]?.name ?? '';
}

export type { ShowRow, ShowView };
