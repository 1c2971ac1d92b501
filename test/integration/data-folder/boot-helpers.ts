// Boots the real browser shell in this process on a given data folder (real files, the embedded
// Demo sandbox over loopback) and calls it through the contract's dispatcher.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bootBrowserShell } from '../../../browser-shell/boot';
import { memoryLogger } from '../../../shared/logger';
import type { OrderView } from '../../../shared/orders';
import { ensureShift } from '../../helpers/ensure-shift';

export type BootedShell = Awaited<ReturnType<typeof bootBrowserShell>>;
const ctx = { trusted: true, sender: 'test' };

export const SALE = {
  filmName: 'Lagos Nights',
  filmTitle: 'Lagos Nights (2D)',
  showDate: '2026-11-21',
  showTime: '19:30',
  seats: 'F7,F8',
  tickets: 2,
  priceKobo: 150_000,
  bookingFeeKobo: 50_000,
  sn: 'DEMO-POS-0001',
};

let rendererDir: string | null = null;
function fakeRenderer(): string {
  if (!rendererDir) {
    rendererDir = mkdtempSync(join(tmpdir(), 'counterpay-renderer-'));
    writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>CounterPay</title>');
  }
  return rendererDir;
}

export function tempDataDir(prefix = 'counterpay-recovery-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export async function boot(dataDir: string, restoreFrom?: string): Promise<BootedShell> {
  return bootBrowserShell({
    dataDir,
    rendererDir: fakeRenderer(),
    port: 0,
    logger: memoryLogger(),
    version: 't',
    ...(restoreFrom ? { restoreFrom } : {}),
  });
}

export async function call<T>(app: BootedShell, name: string, args: unknown = {}): Promise<T> {
  const r = await app.core.dispatch(name, args, ctx);
  if (!r.ok) throw Object.assign(new Error(`${name}: ${r.error.code} ${r.error.message}`), { error: r.error });
  return r.value as T;
}

export async function callError(
  app: BootedShell,
  name: string,
  args: unknown = {},
): Promise<{ code: string; message: string }> {
  const r = await app.core.dispatch(name, args, ctx);
  if (r.ok) throw new Error(`${name} was expected to fail`);
  return r.error;
}

/** Pays a Demo sale: waits until it shows on the Demo terminal, presents the card, waits for paid. */
export async function payOnDemoTerminal(app: BootedShell, id: number): Promise<OrderView> {
  const waiters: { state: string; ok: () => void }[] = [];
  const off = app.core.events.subscribe((name, payload) => {
    const v = payload as OrderView;
    if (name === 'order.changed' && v.id === id) for (const w of waiters.filter((x) => x.state === v.state)) w.ok();
  });
  const reach = (state: OrderView['state']) => new Promise<void>((ok) => waiters.push({ state, ok }));
  try {
    const waiting = reach('waiting');
    // Subscribed first, then asked: a state reached in between is not missed.
    if ((await call<OrderView>(app, 'orders.get', { id })).state !== 'waiting') await waiting;
    const paid = reach('paid');
    await call(app, 'demo.present', { outcome: 'SUCCESS' });
    await paid;
    return call<OrderView>(app, 'orders.get', { id });
  } finally {
    off();
  }
}

/** A Demo sale taken to paid. */
export async function sellPaid(app: BootedShell, sale: Record<string, unknown> = SALE): Promise<OrderView> {
  await ensureShift((n, a) => call(app, n, a));
  const order = await call<OrderView>(app, 'sale.charge', sale);
  return payOnDemoTerminal(app, order.id);
}
