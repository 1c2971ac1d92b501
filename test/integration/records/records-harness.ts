// The composed core in the Demo profile for the receipts and shift tests: calls through the real
// dispatcher, sales paid on the embedded Demo terminal, waits that resolve on events.
import { mkdtempSync } from 'node:fs';
import { afterEach } from 'vitest';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OrderView } from '../../../shared/orders';
import type { PrintJobView } from '../../../shared/records';
import { createCore, type Core } from '../../../core/app-core';
import { systemClock } from '../../../shared/clock';
import { memoryLogger } from '../../../shared/logger';
import { confStore } from '../../../browser-shell/boot';
import { fileVault } from '../../../core/settings/secret-vault';
import { ensureShift } from '../../helpers/ensure-shift';
import { closeAfterEach } from '../../helpers/close-after-each';
import { startLoopbackPrinter, type LoopbackPrinter } from '../../helpers/loopback-printer';

const ctx = { trusted: true, sender: 'test' };

export const SALE = {
  filmName: 'LAGOS-NIGHTS',
  filmTitle: 'Lagos Nights (2D)',
  showDate: '2026-11-21',
  showTime: '19:30',
  seats: 'F7,F8',
  tickets: 2,
  priceKobo: 150_000,
  bookingFeeKobo: 50_000,
  sn: 'DEMO-POS-0001',
};

/**
 * Cores and loopback printers for one test file, each stopped after the test that started it (the
 * cores first). `stopCore` stops the newest core within a test (a restart).
 */
export function perTest() {
  const printers = closeAfterEach((p: LoopbackPrinter) => p.stop());
  const cores: Core[] = [];
  afterEach(async () => {
    while (cores.length) await cores.pop()!.stop();
  });
  return {
    boot: async (dir?: string) => {
      const b = await bootCore(dir);
      cores.push(b.core);
      return b;
    },
    stopCore: () => cores.pop()!.stop(),
    printer: async () => printers(await startLoopbackPrinter()),
  };
}

export async function bootCore(
  dir = mkdtempSync(join(tmpdir(), 'counterpay-records-')),
): Promise<{ core: Core; dir: string }> {
  const core = await createCore({
    shell: 'browser',
    version: 't',
    dataDir: dir,
    store: confStore(dir),
    vault: fileVault(join(dir, 'secrets.json')),
    logger: memoryLogger(),
    clock: systemClock,
  });
  return { core, dir };
}

export async function call<T>(core: Core, name: string, args: unknown): Promise<T> {
  const r = await core.dispatch(name, args, ctx);
  if (!r.ok)
    throw Object.assign(new Error(`${name}: ${r.error.code} ${r.error.message}`), {
      code: r.error.code,
      details: r.error.details,
    });
  return r.value as T;
}

export async function callError(
  core: Core,
  name: string,
  args: unknown,
): Promise<{ code: string; message: string; details?: Record<string, unknown> }> {
  const r = await core.dispatch(name, args, ctx);
  if (r.ok) throw new Error(`${name} was expected to fail`);
  return r.error;
}

export function nextEvent<T>(core: Core, event: string, match: (p: T) => boolean, timeoutMs = 15_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`no ${event} event matched within ${timeoutMs} ms`));
    }, timeoutMs);
    const off = core.events.subscribe((name, payload) => {
      if (name === event && match(payload as T)) {
        clearTimeout(timer);
        off();
        resolve(payload as T);
      }
    });
  });
}

export const orderIn = (core: Core, id: number, state: OrderView['state']) =>
  nextEvent<OrderView>(core, 'order.changed', (v) => v.id === id && v.state === state);
export const jobIn = (core: Core, match: (j: PrintJobView) => boolean) =>
  nextEvent<PrintJobView>(core, 'receipts.jobChanged', match);

/** Sells on the Demo terminal and plays the customer: SUCCESS pays, FAIL declines, CANCEL cancels, null leaves it waiting. */
export async function sell(
  core: Core,
  outcome: 'SUCCESS' | 'FAIL' | 'CANCEL' | null,
  sale: Partial<typeof SALE> = {},
): Promise<OrderView> {
  await ensureShift((n, a) => call(core, n, a));
  const order = await call<OrderView>(core, 'sale.charge', { ...SALE, ...sale });
  await orderIn(core, order.id, 'waiting');
  if (!outcome) return order;
  const state = outcome === 'SUCCESS' ? 'paid' : outcome === 'FAIL' ? 'failed' : 'cancelled';
  const done = orderIn(core, order.id, state);
  await call(core, 'demo.present', { outcome });
  return done;
}
