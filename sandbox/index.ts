// The provider sandbox, in process: startSandbox() serves the bills API and the POS API on one
// loopback port and returns handles to drive terminals, faults and webhooks (Demo profile, tests).
import { EventEmitter } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { systemClock, type Clock } from '../shared/clock';
import { silentLogger, type Logger } from '../shared/logger';
import { billsErrorResult, createBillsRoutes } from './bills';
import { parseSandboxConfig, type ResolvedSandboxConfig, type SandboxConfig } from './config';
import type { SandboxContext, SandboxEventMap, SandboxEvents } from './context';
import { createControlHandler, type ControlTarget } from './control';
import { FaultEngine, type FaultRule } from './faults';
import { createPosRoutes } from './pos';
import { posErrorResult } from './pos-envelope';
import { PosOrderStore } from './pos-orders';
import { IdGenerator, SandboxTimers } from './scheduler';
import { SandboxClock } from './sandbox-clock';
import { createRequestHandler } from './server';
import { TopupStore } from './topups';
import { WebhookSender } from './webhooks';

export { SandboxConfigSchema, loadConfigFile, parseSandboxConfig, SandboxConfigError } from './config';
export type { SandboxConfig, ResolvedSandboxConfig } from './config';
export { generateDemoConfig, type DemoMerchantValues } from './demo-config';
export { FAULT_KINDS, FaultRuleSchema, type FaultKind, type FaultRule, type FaultRuleState } from './faults';
export { CODES, SandboxControlError } from './codes';
export type { SandboxEventMap, SandboxEvents } from './context';
export type { SandboxClockState } from './sandbox-clock';
export type { WebhookAttempt } from './webhooks';
export type {
  CardPresentation,
  DeliveryStatus,
  PosOrderStatus,
  SandboxPosOrder,
  SandboxTopup,
  TerminalOutcome,
  TerminalScreen,
  TopupStatus,
} from './types';

export interface Sandbox extends ControlTarget {
  /** http://host:port (no trailing slash). */
  url: string;
  port: number;
  /** url + '/api/v3' */
  billsBaseUrl: string;
  /** url */
  posBaseUrl: string;
  /** The configuration in force, defaults filled in. */
  config: ResolvedSandboxConfig;
  events: SandboxEvents;
  /** Stops listening, drops open connections, ends every timer and webhook retry. Idempotent. */
  close(): Promise<void>;
  /** Diagnostic: timers still scheduled (settlements, expiries, webhook retries); 0 after close(). */
  pendingTimers(): number;
}

export interface StartSandboxOptions {
  /** Default: config.host (127.0.0.1). */
  host?: string;
  /** Default: config.port; 0 picks a free port. */
  port?: number;
  logger?: Logger;
  clock?: Clock;
}

function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

export async function startSandbox(config: SandboxConfig, opts: StartSandboxOptions = {}): Promise<Sandbox> {
  const resolved = parseSandboxConfig(config);
  const wireClock = new SandboxClock(opts.clock ?? systemClock);
  const clock: Clock = wireClock;
  const logger = opts.logger ?? silentLogger;
  const events: SandboxEvents = new EventEmitter<SandboxEventMap>();
  events.setMaxListeners(100);
  const timers = new SandboxTimers(clock);
  const faults = new FaultEngine();
  faults.set(resolved.faults);
  const webhooks = new WebhookSender({
    timers,
    clock,
    logger,
    events,
    retryScheduleMs: resolved.webhooks.retryScheduleMs,
    timeoutMs: resolved.webhooks.timeoutMs,
  });
  const ctx: SandboxContext = {
    config: resolved,
    clock,
    wireClock,
    logger,
    events,
    timers,
    faults,
    ids: new IdGenerator(clock),
    webhooks,
  };
  const topups = new TopupStore(ctx);
  const posOrders = new PosOrderStore(ctx);

  let sandbox: Sandbox | null = null;
  const handler = createRequestHandler({
    ctx,
    routes: [...createBillsRoutes(ctx, topups), ...createPosRoutes(ctx, posOrders)],
    errorFor: { bills: billsErrorResult, pos: (e) => posErrorResult(ctx, e) },
    control: createControlHandler(() => {
      if (!sandbox) throw new Error('sandbox not started');
      return sandbox;
    }),
  });
  const server = createServer(handler);
  const host = opts.host ?? resolved.host;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? resolved.port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('clientError', (_err, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    else socket.destroy();
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://${urlHost(host)}:${port}`;
  logger.info('sandbox: listening', { url });

  let closing: Promise<void> | null = null;
  sandbox = {
    url,
    port,
    billsBaseUrl: `${url}/api/v3`,
    posBaseUrl: url,
    config: resolved,
    events,
    close() {
      closing ??= new Promise<void>((resolve) => {
        timers.close();
        webhooks.abortAll();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
    pendingTimers: () => timers.pending,
    present: (sn, outcome, card) => posOrders.present(sn, outcome, card),
    terminalScreen: (sn) => posOrders.terminalScreen(sn),
    terminalScreens: () => resolved.pos.terminals.map((t) => posOrders.terminalScreen(t.sn)),
    listPosOrders: () => posOrders.list(),
    listTopups: () => topups.list(),
    setWebhookUrl: (headMerchantId, u) => posOrders.setWebhookUrl(headMerchantId, u),
    setFaults: (rules: FaultRule[]) => faults.set(rules),
    clearFaults: () => faults.clear(),
    listFaults: () => faults.list(),
    redeliverWebhook: (orderNo, o) => posOrders.redeliver(orderNo, o),
    reportLate: (orderNo, status, card) => posOrders.reportLate(orderNo, status, card),
    clockState: () => wireClock.state(),
    setClock: (patch) => wireClock.set(patch),
    reset() {
      timers.clearAll();
      webhooks.abortAll();
      topups.reset();
      posOrders.reset();
      faults.set(resolved.faults);
      wireClock.set({ offsetMs: 0, sendDate: true });
    },
  };
  return sandbox;
}
