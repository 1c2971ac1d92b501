// The box-office integrations, built from explicit dependencies: pairing (a key per integration,
// in the vault), the charge desk, the durable callback queue and its sender, and the local HTTP
// API. The module (integrations-module.ts) answers Settings' calls with it; tests and the chaos
// child build it directly on a checkout.
import type { Logger } from '../../shared/logger';
import { fingerprint } from '../../protocol/crypto';
import { AppError } from '../../shared/errors';
import { isFinalState } from '../../shared/orders';
import type { Db } from '../db';
import { systemTimers, type BackoffTuning, type Timers } from '../lib';
import type { OrderEvents, OrderReads, SaleDoors, UndoService } from '../orders';
import type { SecretVault } from '../settings';
import { createCallbackSender, type CallbackSenderDeps } from './callback-sender';
import { createChargeDesk, type ChargeDeskDeps } from './charge-desk';
import { createChargeQueue } from './charge-queue';
import type { AttemptLimits } from './attempt-throttle';
import { createFolderDrop } from './folder-drop';
import { openChargeLink } from './charge-link';
import { keyHash, newIntegrationKey, vaultScope } from './integration-keys';
import { startIntegrationServer, type IntegrationServer } from './integration-server';
import { IntegrationStore, type ChargeRow } from './integration-store';

export interface IntegrationsDeps {
  db: Db;
  checkout: Pick<SaleDoors, 'sell' | 'cancelQueued' | 'priceBasket'> &
    Pick<OrderReads, 'get' | 'history' | 'listQueued'> &
    OrderEvents & { undo: Pick<UndoService, 'cancel' | 'ofOrder'> };
  vault: SecretVault;
  terminalSn: () => string | null;
  now: () => number;
  logger: Logger;
  timers?: Timers;
  random?: () => number;
  callbackBackoff?: BackoffTuning;
  callbackTimeoutMs?: number;
  onDelivered?: CallbackSenderDeps['onDelivered'];
  onNewCharge?: ChargeDeskDeps['onNew'];
  /** Where the folder drop's folders are (one per paired system); absent: no folder drop. */
  dropRoot?: string;
  dropScanMs?: number;
  /** Failed attempts allowed per caller address at the HTTP API (tests). */
  attemptLimits?: Partial<AttemptLimits>;
}

export interface ApiPlacement {
  /** 0 picks a free port (tests). */
  port: number;
  /** Listen on every interface and answer callers from the network. */
  lan: boolean;
}

export function createIntegrations(deps: IntegrationsDeps) {
  const { logger } = deps;
  const store = new IntegrationStore(deps.db);
  const timers = deps.timers ?? systemTimers;
  let server: IntegrationServer | null = null;

  const keyOf = (id: string) => deps.vault.get(vaultScope(id), 'key');

  /** Queues the charge's state changes not queued yet (exactly once each), then sends what is due. */
  function queue(c: ChargeRow): void {
    const order = deps.checkout.get(c.orderId);
    if (!order) return;
    const url = c.callbackUrl ?? store.integration(c.integrationId)?.callbackUrl ?? null;
    const added = store.queueEvents(c.id, deps.checkout.history(c.orderId), url, isFinalState(order.state), deps.now());
    if (added > 0) sender.kick();
  }

  const chargeQueue = createChargeQueue({ store, checkout: deps.checkout });
  const desk = createChargeDesk({
    store,
    checkout: deps.checkout,
    queue: chargeQueue,
    terminalSn: deps.terminalSn,
    now: deps.now,
    onCharge: queue,
    ...(deps.onNewCharge ? { onNew: deps.onNewCharge } : {}),
  });
  const sender = createCallbackSender({
    store,
    keyOf,
    viewOf: desk.viewOf,
    now: deps.now,
    timers,
    logger,
    ...(deps.random ? { random: deps.random } : {}),
    ...(deps.callbackBackoff ? { backoff: deps.callbackBackoff } : {}),
    ...(deps.callbackTimeoutMs ? { timeoutMs: deps.callbackTimeoutMs } : {}),
    ...(deps.onDelivered ? { onDelivered: deps.onDelivered } : {}),
  });

  const drop = deps.dropRoot
    ? createFolderDrop({
        root: deps.dropRoot,
        store,
        desk,
        timers,
        logger,
        now: deps.now,
        ...(deps.dropScanMs ? { scanMs: deps.dropScanMs } : {}),
      })
    : null;

  // Every change of an order that a box office asked for is queued for its callback (and, for a
  // charge a request file named, written to its outbox) — a payment after closing too: the charge is final,
  // but the box office must hear that the customer was debited.
  const off = deps.checkout.on('order', (v) => {
    const c = store.chargeByOrder(v.id);
    if (!c) return;
    queue(c);
    if (c.outbox && drop) {
      try {
        drop.writeOutcome(c);
      } catch (e) {
        logger.error('folder drop: outcome not written', {
          chargeId: c.id,
          error: e instanceof Error ? e.message : String(e),
        });
      }
    }
  });

  return {
    store,
    desk,
    sender,
    drop,
    /** The charges waiting for the terminal: the cashier's view, and the cashier's cancel. */
    queue: chargeQueue,

    /** Pairs a system: its key is returned once, kept in the vault, and never shown again. */
    pair(name: string, callbackUrl: string | null): { id: string; name: string; key: string; keyFingerprint: string } {
      const { id, key } = newIntegrationKey();
      deps.vault.setMany(vaultScope(id), { key });
      store.addIntegration({
        id,
        name,
        keyHash: keyHash(key),
        keyFingerprint: fingerprint(key),
        callbackUrl,
        createdAt: deps.now(),
      });
      logger.info('integration paired', { id, name });
      return { id, name, key, keyFingerprint: fingerprint(key) };
    },

    revoke(id: string): void {
      if (!store.revoke(id, deps.now()))
        throw new AppError('NOT_FOUND', 'There is no such paired system (or it was revoked already).', { id });
      deps.vault.setMany(vaultScope(id), { key: null });
      logger.info('integration revoked', { id });
    },

    list() {
      return store.listActive().map((i) => ({
        id: i.id,
        name: i.name,
        callbackUrl: i.callbackUrl,
        keyFingerprint: i.keyFingerprint,
        createdAt: i.createdAt,
        ...(drop ? { dropFolder: drop.folders(i.id).base } : {}),
        ...(i.lastUsedAt !== null ? { lastUsedAt: i.lastUsedAt } : {}),
      }));
    },

    /** After a crash: state changes journaled but not queued are queued now, and the queue is sent. */
    resume(): void {
      for (const c of store.unsettled()) queue(c);
      for (const c of store.behind()) {
        queue(c);
        if (c.outbox) drop?.writeOutcome(c);
      }
      sender.kick();
      drop?.start();
    },

    /** (Re)starts the HTTP API where `placement` says; null stops it. */
    async serve(placement: ApiPlacement | null): Promise<string | null> {
      await server?.close();
      server = null;
      if (!placement) return null;
      server = await startIntegrationServer({
        host: placement.lan ? '0.0.0.0' : '127.0.0.1',
        port: placement.port,
        allowRemote: placement.lan,
        desk,
        store,
        logger,
        now: deps.now,
        ...(deps.attemptLimits ? { attemptLimits: deps.attemptLimits } : {}),
      });
      return server.url;
    },

    apiUrl: () => server?.url ?? null,

    /** A charge link (counterpay://charge?…) opened on this computer. */
    openLink: (url: string) => openChargeLink({ store, desk, keyOf, now: deps.now }, url),

    async stop(): Promise<void> {
      off();
      await drop?.stop();
      await server?.close();
      server = null;
      await sender.stop();
    },
  };
}
export type Integrations = ReturnType<typeof createIntegrations>;
