// What the Programme and Shows screens show, as pure functions (unit-tested in
// test/unit/hub-dashboard/programme-view.test.ts): the programme laid out by day, a ticket type's
// price in words, the version line, an import's outcome in words, and each show's fill bar.
import type { DashProgrammeView, ImportProgrammeResult, ShowFill } from '../../../shared/hub-programme-contract';
import type { Programme, TicketType } from '../../../shared/programme';
import { formatCount, formatNaira, lagosDayTime } from './format';

interface DayShow {
  time: string;
  screen: string;
  film: string;
  /** As printed on the ticket; the film's name when the programme has no such film. */
  title: string;
  rating: string;
  ticketTypes: TicketType[];
}
interface ProgrammeDay {
  date: string;
  shows: DayShow[];
}

/** The programme's shows grouped by day, days and shows in order (time, then screen). */
export function programmeDays(p: Programme): ProgrammeDay[] {
  const films = new Map(p.films.map((f) => [f.name.toLowerCase(), f]));
  const days = new Map<string, DayShow[]>();
  for (const s of p.shows) {
    const f = films.get(s.film.toLowerCase());
    const list = days.get(s.date) ?? [];
    list.push({
      time: s.time,
      screen: s.screen,
      film: s.film,
      title: f?.title ?? s.film,
      rating: f?.rating ?? '',
      ticketTypes: s.ticketTypes,
    });
    days.set(s.date, list);
  }
  return [...days.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([date, shows]) => ({
      date,
      shows: shows.sort(
        (a, b) => a.time.localeCompare(b.time) || a.screen.localeCompare(b.screen) || a.film.localeCompare(b.film),
      ),
    }));
}

/** "Adult ₦4,500.00 + ₦200.00 fee", or "Child ₦2,500.00 (no fee)". */
export function ticketTypeText(t: TicketType): string {
  return `${t.name} ${formatNaira(t.priceKobo)}${t.bookingFeeKobo > 0 ? ` + ${formatNaira(t.bookingFeeKobo)} fee` : ' (no fee)'}`;
}

/** "Version 3, set 12 May, 19:30 by Funmi Head", or that none is set yet. */
export function versionLine(v: Pick<DashProgrammeView, 'version' | 'updatedAt' | 'updatedBy'>): string {
  if (v.version === 0) return 'No programme set on the Hub yet: the counters sell from their own copy.';
  const when = v.updatedAt === null ? '' : `, set ${lagosDayTime(v.updatedAt)}`;
  return `Version ${v.version}${when}${v.updatedBy ? ` by ${v.updatedBy}` : ''}`;
}

const plural = (n: number, one: string, many = `${one}s`) => `${formatCount(n)} ${n === 1 ? one : many}`;

/** An import's outcome in one sentence: what reached the counters, or that nothing changed and why. */
export function importOutcome(r: ImportProgrammeResult, fileName: string): { tone: 'good' | 'bad'; text: string } {
  if (r.imported) {
    const p = r.programme;
    return {
      tone: 'good',
      text: `Version ${p.version} sent to the branch's counters: ${fileName}, ${plural(r.totalRows, 'row')} (${plural(p.films, 'film')}, ${plural(p.shows, 'show')}).`,
    };
  }
  const shown = r.errors.length < r.errorCount ? ` The first ${formatCount(r.errors.length)} are listed.` : '';
  return {
    tone: 'bad',
    text: `Nothing changed: ${plural(r.errorCount, 'problem')} in ${fileName} (${plural(r.totalRows, 'row')}). Fix ${r.errorCount === 1 ? 'it' : 'them'} in the file and import it again; the counters keep version ${r.programme.version}.${shown}`,
  };
}

/** Where an error is, as a spreadsheet user looks for it: "line 4", "the file". */
export const errorLine = (line: number): string => (line === 0 ? 'the file' : String(line));

interface FillBar {
  /** Share of the bar's full width (0–100), sold and still being paid for. */
  soldPct: number;
  heldPct: number;
}

/**
 * A show's bar against the day's fullest show (the programme does not know a screen's seats, so the
 * fullest show of the day fills the bar; the numbers beside it are exact).
 */
export function fillBars(shows: Pick<ShowFill, 'seatsSold' | 'seatsHeld'>[]): { scale: number; bars: FillBar[] } {
  const scale = Math.max(0, ...shows.map((s) => s.seatsSold + s.seatsHeld));
  const pct = (n: number) => (scale === 0 ? 0 : Math.round((n / scale) * 1000) / 10);
  return { scale, bars: shows.map((s) => ({ soldPct: pct(s.seatsSold), heldPct: pct(s.seatsHeld) })) };
}

/** "12 seats sold in 7 sales · ₦54,000.00 · 2 being paid for" */
export function fillText(s: Pick<ShowFill, 'seatsSold' | 'paidCount' | 'cardTotalKobo' | 'seatsHeld'>): string {
  const parts = [
    s.seatsSold === 0 ? 'No seats sold' : `${plural(s.seatsSold, 'seat')} sold in ${plural(s.paidCount, 'sale')}`,
    formatNaira(s.cardTotalKobo),
  ];
  if (s.seatsHeld > 0) parts.push(`${formatCount(s.seatsHeld)} being paid for`);
  return parts.join(' · ');
}
