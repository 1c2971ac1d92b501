// Seat maps at the counter (docs/seat-maps.md): the screens' layouts (a file imported here, or the
// Hub's programme), a show's seat map (its layout and the seats taken: this counter's own sales,
// and other counters' through the Hub when there is one), the seat rules plugged into the checkout,
// and `seats.changed` when a show's seats change here or the Hub says they changed elsewhere.
import type { seatCalls } from '../../shared/contract-seats';
import { AppError } from '../../shared/errors';
import { parseLayout } from '../../shared/seat-layout';
import { demoProgramme } from '../../shared/demo-programme';
import type { Programme, ProgrammeSource, ProgrammeSummary } from '../../shared/programme';
import { lagosDate } from '../../shared/time';
import type { SeatMapView, SeatTaken, SeatTakenSource } from '../../shared/seats';
import type { CoreModule } from '../core-module';
import type { CoreServices } from '../core-services';
import { systemTimers, type TimerHandle, type Timers } from '../lib';
import type { OrderEvents, OrderSeats } from '../orders';
import type { LayoutStore } from './layout-store';
import type { ProgrammeStore } from './programme-store';

/** How long the seat map waits on the Hub for other counters' seats before it shows this counter's own. */
const SEAT_MAP_DEADLINE_MS = 400;

type SeatMapContext = Pick<CoreServices, 'clock' | 'events' | 'logger'> & {
  checkout: OrderSeats & OrderEvents;
  /** Demo and Sandbox sales see only other practice sales. */
  practice: () => boolean;
  /** The Demo profile is in use (the Demo programme may be loaded). */
  demo: () => boolean;
  timers?: Timers;
};

interface SeatMapDeps {
  store: ProgrammeStore;
  layouts: LayoutStore;
  /** The programme's one way in (the Demo programme goes through it too). */
  replaceProgramme: (source: ProgrammeSource, p: Programme) => { summary: ProgrammeSummary };
  /** Other counters' seats (the Hub's); null or absent: this counter's own only. */
  seatTaken?: () => SeatTakenSource | null;
}

type Asked = { kind: 'hub'; at: number; taken: SeatTaken[] } | { kind: 'local'; reason: string };

async function askTaken(
  source: SeatTakenSource | null,
  showKey: string,
  practice: boolean,
  timers: Timers,
): Promise<Asked> {
  if (!source) return { kind: 'local', reason: 'This counter has no Hub: the map shows the seats sold here only.' };
  let timer: TimerHandle | undefined;
  const late = new Promise<Asked>((resolve) => {
    timer = timers.setTimeout(
      () =>
        resolve({
          kind: 'local',
          reason: 'The Hub did not answer in time: the map shows the seats sold here only.',
        }),
      SEAT_MAP_DEADLINE_MS,
    );
  });
  const asked = source.taken(showKey, practice).then(
    (r): Asked => ({ kind: 'hub', at: r.at, taken: r.taken }),
    (): Asked => ({ kind: 'local', reason: 'The Hub cannot be reached: the map shows the seats sold here only.' }),
  );
  try {
    return await Promise.race([asked, late]);
  } finally {
    if (timer !== undefined) timers.clearTimeout(timer);
  }
}

export function createSeatMapModule(ctx: SeatMapContext, deps: SeatMapDeps) {
  const { store, layouts } = deps;
  const { checkout, clock, events, logger } = ctx;
  const timers = ctx.timers ?? systemTimers;
  const seatTaken = deps.seatTaken ?? (() => null);

  /** A show's seats changed (a sale here, or the Hub said so): the seat maps showing it ask again. */
  function seatsChanged(showKey: string): void {
    events.emit('seats.changed', { showKey });
  }
  const offOrder = checkout.on('order', (v) => {
    const held = checkout.seatsOf(v.id);
    if (held) seatsChanged(held.showKey);
  });

  async function seatMap(showId: number): Promise<SeatMapView> {
    const show = store.show(showId);
    if (!show)
      throw new AppError(
        'NOT_FOUND',
        'This show is no longer in the programme (a new one was imported): pick the show again from the list.',
        { showId },
      );
    const own = checkout
      .ownSeats(show.key)
      .map(({ seat, state, counterName, mine }) => ({ seat, state, counterName, mine }));
    const asked = await askTaken(seatTaken(), show.key, ctx.practice(), timers);
    const mine = new Set(own.map((t) => t.seat));
    const others = asked.kind === 'hub' ? asked.taken.filter((t) => !mine.has(t.seat) && !t.mine) : [];
    return {
      showId: show.id,
      showKey: show.key,
      screen: show.screen,
      layout: layouts.get(show.screen),
      taken: [...own, ...others],
      source: asked.kind === 'hub' ? { kind: 'hub', at: asked.at } : { kind: 'local', reason: asked.reason },
    };
  }

  const module: CoreModule<typeof seatCalls> = {
    handlers: {
      'seats.map': (a) => seatMap(a.showId),
      'seats.screens': () => {
        const screens = new Map<
          string,
          { screen: string; layout: ReturnType<LayoutStore['get']>; source: 'file' | 'hub' | null }
        >();
        for (const s of store.screens()) screens.set(s.toLowerCase(), { screen: s, layout: null, source: null });
        for (const l of layouts.list()) {
          const known = screens.get(l.screen.toLowerCase());
          screens.set(l.screen.toLowerCase(), {
            screen: known?.screen ?? l.screen,
            layout: l.layout,
            source: l.source,
          });
        }
        return [...screens.values()];
      },
      'seats.importLayout': (a) => {
        const parsed = parseLayout(a.text, a.fileName);
        if (parsed.kind === 'refused') return { kind: 'refused', errors: parsed.errors };
        layouts.put(parsed.layout, 'file', clock.now(), { fileName: a.fileName, by: a.by });
        logger.info('seat layout imported', {
          screen: parsed.layout.screen,
          capacity: parsed.layout.capacity,
          by: a.by,
        });
        for (const s of store.showsOfScreen(parsed.layout.screen)) seatsChanged(s);
        return { kind: 'imported', screen: parsed.layout.screen, capacity: parsed.layout.capacity };
      },
      'seats.loadDemoProgramme': () => {
        if (!ctx.demo())
          throw new AppError(
            'NOT_READY',
            'The Demo programme is for the Demo profile only: switch to Demo in Settings first.',
          );
        const now = clock.now();
        const p = demoProgramme(lagosDate(now), lagosDate(now + 24 * 60 * 60 * 1000));
        return deps.replaceProgramme({ kind: 'csv', fileName: 'Demo programme', importedAt: now, by: 'Demo' }, p)
          .summary;
      },
    },
    stop() {
      offOrder();
    },
  };
  return Object.assign(module, {
    seatMap,
    /** The hub link: the Hub said a show's seats changed at another counter. */
    seatsChanged,
  });
}
