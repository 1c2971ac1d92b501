// The programme: the counter's copy of films, screens, shows and ticket types; its CSV import; the
// next shows for the Sell screen; and a sale of a picked show, built here from the copy into the
// same sale the hand-typed form makes and charged through the one checkout. The Hub's programme
// (core/hub-link/programme-link.ts) comes through replaceProgramme, the same path the CSV import
// takes; the seat check is a plug.
import type { programmeCalls } from '../../shared/contract-programme';
import { AppError, issueFields, validationError } from '../../shared/errors';
import { bookingFeeForSale, SaleInputSchema, type SaleInput } from '../../shared/orders';
import { splitSeats, tidySeats } from '../../shared/seat-list';
import {
  ProgrammeSchema,
  SHOW_GRACE_MS,
  upcomingShows,
  type Programme,
  type ProgrammeSource,
  type ProgrammeSummary,
  type ShowView,
} from '../../shared/programme';
import { lagosDate } from '../../shared/time';
import type { CoreModule } from '../core-module';
import type { CoreServices } from '../core-services';
import { checkProgrammeFile, programmeTemplate } from '../../shared/programme-csv';
import { defaultTicketType, ProgrammeStore } from './programme-store';
import type { SaleDoors } from '../orders';
import { runSeatCheck, type SeatCheck } from './seat-check';
import { checkLayoutFile } from '../../shared/seat-layout';
import type { ScreenLayout } from '../../shared/seats';
import { LayoutStore } from './layout-store';

/** What the programme takes of the core: a sale of a show goes through the one checkout. */
type ProgrammeContext = Pick<CoreServices, 'db' | 'clock' | 'events' | 'logger'> & {
  checkout: Pick<SaleDoors, 'sell'>;
};

/** At most this many errors travel back with a refused file (the count says how many in all). */
const MAX_ERRORS_SHOWN = 200;
/** The Sell list shows the next shows only; a week of a multiplex is far fewer. */
const MAX_NEXT_SHOWS = 300;

interface ProgrammeModuleDeps {
  /** Asked before a sale whether its seats are taken on another counter; null or absent: skipped. */
  seatCheck?: () => SeatCheck | null;
}

type ReplaceOutcome =
  { replaced: true; summary: ProgrammeSummary } | { replaced: false; reason: string; summary: ProgrammeSummary };

export function createProgrammeModule(ctx: ProgrammeContext, deps: ProgrammeModuleDeps = {}) {
  const store = new ProgrammeStore(ctx.db);
  const layouts = new LayoutStore(ctx.db);
  const { checkout, clock, events, logger } = ctx;
  /** The seat check's source, given at build (the root's reads the Hub link once it exists). */
  const seatCheck = deps.seatCheck ?? null;

  /**
   * The one way a programme enters the counter: a CSV import or the Hub's programme. All or nothing;
   * a Hub version not newer than the copy's is refused (a late or repeated push).
   */
  function replaceProgramme(source: ProgrammeSource, programme: Programme): ReplaceOutcome {
    const parsed = ProgrammeSchema.safeParse(programme);
    if (!parsed.success) {
      const first = parsed.error.issues[0];
      throw new AppError('VALIDATION', `The programme cannot be used: ${first?.message ?? 'it is not a programme'}`, {
        fields: issueFields(parsed.error.issues),
      });
    }
    // Versions count up per Hub: a copy from another enrollment (a new Hub, or the same one rebuilt)
    // says nothing about this one's numbers.
    const current = store.source();
    const held =
      current?.kind === 'hub' &&
      (current.counterId ?? null) === (source.kind === 'hub' ? (source.counterId ?? null) : null)
        ? current.version
        : null;
    if (source.kind === 'hub' && held !== null && source.version <= held) {
      return {
        replaced: false,
        reason: `This counter already has version ${held} of the programme from the Hub`,
        summary: store.summary(),
      };
    }
    // Its layouts (a Hub push, the Demo programme): each checked first; the Hub's replace all it gave before.
    const given = parsed.data.layouts ? checkLayouts(parsed.data.layouts) : null;
    ctx.db.transaction(() => {
      store.replace(source, parsed.data, clock.now());
      if (given && source.kind === 'hub') layouts.replaceFromHub(given, clock.now());
      else
        for (const l of given ?? [])
          layouts.put(l, 'file', clock.now(), { fileName: source.kind === 'csv' ? source.fileName : '' });
    })();
    const summary = store.summary();
    logger.info('programme replaced', { source: source.kind, shows: summary.shows, films: summary.films });
    events.emit('programme.changed', summary);
    return { replaced: true, summary };
  }

  /** The programme's layouts, each checked as a file is: one wrong and none is kept (nor the programme). */
  function checkLayouts(files: readonly unknown[]): ScreenLayout[] {
    return files.map((f) => {
      const r = checkLayoutFile(f);
      if (r.kind === 'ok') return r.layout;
      const screen = (f as { screen?: unknown }).screen;
      throw new AppError(
        'VALIDATION',
        `The programme cannot be used: the layout of ${typeof screen === 'string' ? screen : 'a screen'} is wrong (${r.errors[0]?.message ?? 'unreadable'})`,
      );
    });
  }

  function nextShows(now: number): ShowView[] {
    const rows = upcomingShows(store.showsFrom(now - SHOW_GRACE_MS, MAX_NEXT_SHOWS), now);
    return rows.map((r) => ({ ...r, defaultTicketType: defaultTicketType(r.ticketTypes) }));
  }

  function showOf(id: number) {
    const show = store.show(id);
    if (!show)
      throw new AppError(
        'NOT_FOUND',
        'This show is no longer in the programme (a new one was imported): pick the show again from the list.',
        { showId: id },
      );
    return show;
  }

  const module: CoreModule<typeof programmeCalls> = {
    handlers: {
      'programme.summary': () => store.summary(),
      'programme.template': () => ({
        fileName: 'programme-template.csv',
        csv: programmeTemplate(lagosDate(clock.now())),
      }),
      'programme.import': (a) => {
        const check = checkProgrammeFile(a.csv);
        if (!check.programme) {
          return {
            imported: false,
            totalRows: check.totalRows,
            errors: check.errors.slice(0, MAX_ERRORS_SHOWN),
            errorCount: check.errors.length,
            summary: store.summary(),
          };
        }
        const out = replaceProgramme(
          { kind: 'csv', fileName: a.fileName, importedAt: clock.now(), by: a.by },
          check.programme,
        );
        return { imported: out.replaced, totalRows: check.totalRows, errors: [], errorCount: 0, summary: out.summary };
      },
      'programme.next': () => ({ source: store.source(), shows: nextShows(clock.now()) }),
      'programme.checkSeats': async (a) => {
        const show = showOf(a.showId);
        const seats = splitSeats(tidySeats(a.seats)).filter(Boolean);
        if (seats.length === 0) return { kind: 'checked', conflicts: [] };
        const about = {
          filmName: show.filmName,
          filmTitle: show.filmTitle,
          date: show.date,
          time: show.time,
          screen: show.screen,
        };
        return runSeatCheck(seatCheck?.() ?? null, { showKey: show.key, show: about, seats });
      },
      'programme.charge': async (a) => {
        const show = showOf(a.showId);
        const type = show.ticketTypes.find((t) => t.name.toLowerCase() === a.ticketType.toLowerCase());
        if (!type)
          throw validationError({
            ticketType: `${a.ticketType} is not a ticket type of this show: choose one of ${show.ticketTypes.map((t) => t.name).join(', ')}`,
          });
        const seats = tidySeats(a.seats);
        const tickets = seats === '' ? 0 : splitSeats(seats).length;
        const input: SaleInput = {
          filmName: show.filmName,
          filmTitle: show.filmTitle,
          showDate: show.date,
          showTime: show.time,
          seats,
          tickets,
          priceKobo: type.priceKobo,
          bookingFeeKobo: bookingFeeForSale(tickets, type.bookingFeeKobo),
          sn: a.sn,
        };
        const checked = SaleInputSchema.safeParse(input);
        if (!checked.success) {
          // The ticket count follows the seats here, so what is wrong with it is said about the seats.
          const fields = issueFields(checked.error.issues);
          const out: Record<string, string> = {};
          for (const [k, msg] of Object.entries(fields)) {
            const key = k === 'tickets' ? 'seats' : k === 'priceKobo' || k === 'bookingFeeKobo' ? 'ticketType' : k;
            out[key] ??= msg;
          }
          throw validationError(out, 'Check the sale: some fields need fixing');
        }
        // One call: the checkout applies the rules (a shift open, one unpaid order per terminal) and
        // records the programme's sale in the order's own transaction (both or neither); paid is the order's.
        return checkout.sell(input, {
          besideWaiting: a.besideWaiting,
          show: { showKey: show.key, ticketType: type.name },
          alongside: (orderId) =>
            store.recordSale({
              orderId,
              showKey: show.key,
              filmName: show.filmName,
              ticketType: type.name,
              tickets,
              at: clock.now(),
              screen: show.screen,
            }),
        });
      },
    },
  };
  return Object.assign(module, {
    replaceProgramme,
    store,
    layouts,
  });
}
