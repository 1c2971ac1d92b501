// Top-ups: airtime and betting, one at a time or in batches. The module builds the top-up service
// from the shared services, answers its share of the contract and pushes changes to the screen.
import type { topupCalls } from '../../shared/contract-topups';
import { isFinalTopupState, type ProvidersView, type TopupView } from '../../shared/topups';
import type { CoreModule } from '../core-module';
import type { CoreServices } from '../core-services';
import type { JournalSink } from '../journal-sink';
import type { BillsClient } from '../provider';
import { systemTimers, type TimerHandle, type Timers } from '../lib';
import { WEBHOOK_PATHS } from '../webhook';
import { toView, type TopupRecord } from './topup-rows';
import { createTopupService, type TopupService, type TopupTuning } from './topup-service';

/**
 * The provider wants a callBackUrl; while no receiver runs, an address that leads nowhere is sent.
 * In Demo the sandbox runs inside the app: a loopback port that refuses at once costs it nothing,
 * where a name that never resolves would tie up DNS lookups for every callback and retry.
 */
const CALLBACK_PLACEHOLDER = 'https://callback.invalid/webhook/bills';
const DEMO_CALLBACK_PLACEHOLDER = 'http://127.0.0.1:9/webhook/bills';

interface TopupsModuleOptions {
  tuning?: Partial<TopupTuning>;
  timers?: Timers;
  /** Batch progress reaches the screen at most this often. */
  eventFlushMs?: number;
}

/** What top-ups take of the core: the provider's bills client, the Hub's journal sink, our receiver's address. */
type TopupsContext = Pick<CoreServices, 'db' | 'store' | 'settings' | 'events' | 'logger' | 'clock'> & {
  bills: BillsClient;
  journalSink: JournalSink;
  /** The public address of our webhook receiver, when it runs (for callBackUrl). */
  webhookUrl: () => string | null;
};

export function createTopupsModule(
  ctx: TopupsContext,
  opts: TopupsModuleOptions = {},
): CoreModule<typeof topupCalls> & { service: TopupService } {
  const timers = opts.timers ?? systemTimers;
  const flushMs = opts.eventFlushMs ?? 200;
  const profile = () => ctx.settings.profile(ctx.settings.activeProfile());

  const service = createTopupService({
    db: ctx.db,
    store: ctx.store,
    bills: ctx.bills,
    identity: () => {
      const name = ctx.settings.activeProfile();
      const p = ctx.settings.profile(name);
      return { profile: name, billsMerchantId: p.billsMerchantId, counterName: p.counterName };
    },
    callBackUrl: () => {
      const base = profile().webhook.callbackBaseUrl.trim() || ctx.webhookUrl();
      if (base) return `${base.replace(/\/+$/, '')}${WEBHOOK_PATHS.bills}`;
      return ctx.settings.activeProfile() === 'demo' ? DEMO_CALLBACK_PLACEHOLDER : CALLBACK_PLACEHOLDER;
    },
    clock: ctx.clock,
    timers,
    logger: ctx.logger,
    journalSink: ctx.journalSink,
    ...(opts.tuning ? { tuning: opts.tuning } : {}),
  });

  // ---- events: singles at once; batches coalesced (counts + the items that reached a result) ----
  const dirty = new Map<number, Map<number, TopupView>>();
  let flushTimer: TimerHandle | null = null;

  function flush(): void {
    flushTimer = null;
    const batches = [...dirty];
    dirty.clear();
    for (const [batchId, items] of batches) {
      const list = [...items.values()];
      for (let i = 0; i < list.length; i += 200)
        ctx.events.emit('topups.batchItems', { batchId, items: list.slice(i, i + 200) });
      try {
        ctx.events.emit('topups.batchChanged', service.batchView(batchId));
      } catch {
        /* a discarded draft's batch may be gone from the list */
      }
    }
  }

  function touch(batchId: number, item?: TopupRecord): void {
    let m = dirty.get(batchId);
    if (!m) dirty.set(batchId, (m = new Map()));
    if (item) m.set(item.id, toView(item));
    flushTimer ??= timers.setTimeout(flush, flushMs);
  }

  const offItems = service.onItems((items) => {
    for (const r of items) {
      if (r.batchId === null) ctx.events.emit('topups.changed', toView(r));
      else if (isFinalTopupState(r.state) || r.state === 'unknown') touch(r.batchId, r);
      else touch(r.batchId);
    }
  });
  const offBatch = service.onBatch((id) => touch(id));
  const offSettings = ctx.settings.onChange(() => service.ownerChanged());

  const providersChanged = (v: ProvidersView): ProvidersView => {
    ctx.events.emit('topups.providersChanged', v);
    return v;
  };

  return {
    service,
    handlers: {
      'topups.providers': async ({ refresh }) =>
        refresh ? providersChanged(await service.refreshProviders()) : service.providers(),
      'topups.checkCustomer': (a) => service.checkCustomer(a),
      'topups.submit': (a) => service.submit(a),
      'topups.get': ({ id }) => service.get(id),
      'topups.checkNow': ({ id }) => service.checkNow(id),
      'topups.recent': () => service.recent(),
      'topups.batchTemplate': () => service.template(),
      'topups.batchImport': ({ csv, fileName }) => service.importBatch(csv, fileName),
      'topups.batchErrors': ({ id, offset, limit }) => service.batchErrors(id, offset, limit),
      'topups.batchCheckCustomers': ({ id }) => service.checkCustomers(id),
      'topups.batchStart': ({ id, chunkSize }) => service.startBatch(id, chunkSize),
      'topups.batchResume': ({ id, chunkSize }) => service.resumeBatch(id, chunkSize),
      'topups.batchCancel': ({ id }) => service.cancelBatch(id),
      'topups.batchGet': ({ id }) => service.batchView(id),
      'topups.batchList': () => service.listBatches(),
      'topups.batchItems': ({ id, filter, offset, limit }) => service.batchItems(id, filter, offset, limit),
      'topups.batchExport': ({ id }) => service.exportBatch(id),
    },
    start() {
      service.start();
    },
    async stop() {
      offItems();
      offBatch();
      offSettings();
      await service.stop();
      if (flushTimer !== null) timers.clearTimeout(flushTimer);
      flushTimer = null;
    },
  };
}
