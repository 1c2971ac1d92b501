// The cashier keeps the counter: the box offices' charges that wait for the terminal are capped (3
// per system, 10 in all; more are refused QUEUE_FULL by every door), give way to the cashier's own
// sale, can be cancelled by the cashier (the box office told by its signed callback, in order), and
// go only to the terminal the counter charges on when their turn comes. The composed core (Demo
// profile: the embedded sandbox over real loopback HTTP, the journal on a real SQLite file), the
// integration API over loopback, a real callback receiver.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../../core/app-core';
import { confStore } from '../../../browser-shell/boot';
import { fileVault } from '../../../core/settings/secret-vault';
import { systemClock } from '../../../shared/clock';
import { memoryLogger } from '../../../shared/logger';
import { CHARGE_QUEUE_LIMITS, type ChargeView } from '../../../shared/integration';
import type { QueuedCharge } from '../../../shared/contract-integrations';
import type { OrderView } from '../../../shared/orders';
import { chargeLink } from '../../../integrations/client';
import { api, startCallbackReceiver, twoSeats, type CallbackReceiver } from '../../helpers/integration-kit';
import { ensureShift } from '../../helpers/ensure-shift';

const ctx = { trusted: true, sender: 'test' };
const cores: Core[] = [];
const receivers: CallbackReceiver[] = [];
afterEach(async () => {
  while (cores.length) await cores.pop()!.stop();
  while (receivers.length) await receivers.pop()!.close();
});

async function call<T>(core: Core, name: string, args: unknown): Promise<T> {
  const r = await core.dispatch(name, args, ctx);
  if (!r.ok) throw Object.assign(new Error(`${name}: ${r.error.code} ${r.error.message}`), { code: r.error.code });
  return r.value as T;
}
const codeOf = async (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e: { code?: string }) => e.code ?? String(e),
  );

/** Resolves with the order once `test` holds (now or at a later change): waits on the core's events. */
function orderWhen(core: Core, id: number, test: (v: OrderView) => boolean): Promise<OrderView> {
  return new Promise((ok) => {
    const now = core.checkout.get(id);
    if (now && test(now)) return ok(now);
    const off = core.events.subscribe((name, payload) => {
      const v = payload as OrderView;
      if (name === 'order.changed' && v.id === id && test(v)) {
        off();
        ok(v);
      }
    });
  });
}

let seq = 0;
/** A two-seat charge with seats of its own. */
const charge = (reference: string) =>
  twoSeats(reference, { sale: { ...twoSeats('x').sale, seats: `A${++seq},B${seq}` } });

/** A Demo counter with a shift open and `systems` box offices paired (each with the callback receiver). */
async function counter(systems = 1) {
  const dir = mkdtempSync(join(tmpdir(), 'counterpay-charge-queue-'));
  const core = await createCore({
    shell: 'browser',
    version: 't',
    dataDir: dir,
    store: confStore(dir),
    vault: fileVault(join(dir, 'secrets.json')),
    logger: memoryLogger(),
    clock: systemClock,
    integrations: { port: 0, dropScanMs: 3_600_000, callbackBackoff: { baseMs: 20, maxMs: 200 } },
  });
  cores.push(core);
  await ensureShift((name, args) => call(core, name, args));
  await call(core, 'settings.setPin', { newPin: '2468' });
  const keys = new Map<string, string>();
  const receiver = await startCallbackReceiver(() => [...keys.values()][0] ?? '');
  receivers.push(receiver);
  const paired: { id: string; key: string }[] = [];
  for (let i = 0; i < systems; i++) {
    const p = await call<{ id: string; key: string }>(core, 'integrations.pair', {
      name: `Box office ${i + 1}`,
      callbackUrl: receiver.url,
    });
    keys.set(p.id, p.key);
    paired.push(p);
  }
  const sb = core.demo()!.sandbox;
  return { core, sb, sn: core.terminal.getState().sn!, paired, receiver, base: core.integrations.apiUrl()! };
}

type Env = Awaited<ReturnType<typeof counter>>;
const orderOf = (env: Env, c: ChargeView) => env.core.checkout.getByOutOrderNo(c.outOrderNo)!;

/** A first charge, on the terminal and waiting for the customer. */
async function onTheTerminal(env: Env, key: string, reference: string): Promise<OrderView> {
  const r = await api<ChargeView>(env.base, key, 'POST', '/v1/charges', charge(reference));
  expect(r.status).toBe(201);
  return orderWhen(env.core, orderOf(env, r.body).id, (v) => v.state === 'waiting');
}

describe('the queue of box-office charges is capped', () => {
  it('200 charges at once: one on the terminal, 3 queued, 196 refused 429 QUEUE_FULL; the cashier still sells', async () => {
    const env = await counter();
    const { key } = env.paired[0]!;
    const first = await onTheTerminal(env, key, 'FLOOD-0');
    const answers = await Promise.all(
      Array.from({ length: 199 }, (_, i) =>
        api<ChargeView & { error?: { code: string } }>(env.base, key, 'POST', '/v1/charges', charge(`FLOOD-${i + 1}`)),
      ),
    );
    const queued = answers.filter((a) => a.status === 201);
    const refused = answers.filter((a) => a.status === 429 && a.body.error?.code === 'QUEUE_FULL');
    expect({ queued: queued.length, refused: refused.length }).toEqual({
      queued: CHARGE_QUEUE_LIMITS.perIntegration,
      refused: 199 - CHARGE_QUEUE_LIMITS.perIntegration,
    });
    expect(queued.every((a) => a.body.state === 'queued')).toBe(true);
    expect(refused[0]!.body.error).toMatchObject({
      message: expect.stringMatching(/3 charges from Box office 1 already wait .*nothing was charged/),
    });
    // Nothing refused was recorded: the journal holds the one on the terminal and the three queued.
    expect(env.core.checkout.listOpen()).toHaveLength(1 + CHARGE_QUEUE_LIMITS.perIntegration);

    // The cashier's own sale, beside the charge on the terminal, goes through: the queued charges
    // do not make the terminal busy for it, and it does not wait behind them.
    const own = await call<OrderView>(env.core, 'sale.charge', {
      ...twoSeats('x').sale,
      seats: 'C1,C2',
      sn: env.sn,
      besideWaiting: first.outOrderNo,
    });
    expect(own.state).toBe('creating');
    await orderWhen(env.core, own.id, (v) => v.state === 'waiting');
    // The charges still wait their turn, none of them sent.
    for (const a of queued) expect(orderOf(env, a.body).state).toBe('queued');
    expect(
      env.sb
        .listPosOrders()
        .map((o) => o.outOrderNo)
        .sort(),
    ).toEqual([first.outOrderNo, own.outOrderNo].sort());
  });

  it('10 in all from several systems; the folder drop and a charge link are refused QUEUE_FULL too', async () => {
    const env = await counter(4);
    await onTheTerminal(env, env.paired[0]!.key, 'ALL-0');
    const statuses: number[] = [];
    for (const [i, p] of env.paired.entries())
      for (let n = 0; n < 3; n++)
        statuses.push((await api(env.base, p.key, 'POST', '/v1/charges', charge(`ALL-${i}-${n}`))).status);
    // 3 + 3 + 3 from the first three systems, 1 from the fourth: 10; its next two refused.
    expect(statuses).toEqual([201, 201, 201, 201, 201, 201, 201, 201, 201, 201, 429, 429]);
    expect(env.core.checkout.listQueued()).toHaveLength(CHARGE_QUEUE_LIMITS.total);
    const last = await api<{ error: { code: string; message: string } }>(
      env.base,
      env.paired[3]!.key,
      'POST',
      '/v1/charges',
      charge('ALL-3-9'),
    );
    expect(last.body.error).toMatchObject({
      code: 'QUEUE_FULL',
      message: expect.stringMatching(/at most 10 from all/),
    });

    // The folder drop's answer file says the same.
    const folders = env.core.integrations.drop!.folders(env.paired[3]!.id);
    mkdirSync(folders.inbox, { recursive: true });
    writeFileSync(join(folders.inbox, 'late.json'), JSON.stringify(charge('ALL-DROP')));
    await env.core.integrations.drop!.scanNow();
    expect(readFileSync(join(folders.rejected, 'late.json.reason.txt'), 'utf8')).toMatch(/^QUEUE_FULL: /);
    // And a charge link.
    const url = chargeLink(env.paired[3]!.key, charge('ALL-LINK') as never);
    expect(await codeOf(call(env.core, 'integrations.openLink', { url }))).toBe('QUEUE_FULL');
    expect(env.core.checkout.listQueued()).toHaveLength(CHARGE_QUEUE_LIMITS.total);
  });
});

describe('the cashier sees the queue and cancels a charge in it', () => {
  it('the queue lists the waiting charge; cancelled, it never reaches the terminal and the box office is told, signed, in order', async () => {
    const env = await counter();
    const { key } = env.paired[0]!;
    await onTheTerminal(env, key, 'SEEN-1');
    const made = await api<ChargeView>(env.base, key, 'POST', '/v1/charges', charge('SEEN-2'));
    const id = orderOf(env, made.body).id;
    const queue = await call<QueuedCharge[]>(env.core, 'integrations.queue', {});
    expect(queue).toEqual([
      expect.objectContaining({
        orderId: id,
        integration: 'Box office 1',
        reference: 'SEEN-2',
        amountKobo: 350_000,
        source: 'api',
      }),
    ]);
    const told = new Promise<QueuedCharge[]>((ok) => {
      const off = env.core.events.subscribe((name, payload) => {
        if (name !== 'integrations.queue') return;
        off();
        ok(payload as QueuedCharge[]);
      });
    });
    const cancelled = await call<OrderView>(env.core, 'integrations.cancelQueued', { orderId: id });
    expect(cancelled.state).toBe('cancelled');
    expect(await told).toEqual([]);
    expect(await call(env.core, 'integrations.queue', {})).toEqual([]);

    const cb = await env.receiver.until((r) => r.body.charge.reference === 'SEEN-2' && r.body.event.to === 'cancelled');
    expect(cb.signatureOk).toBe(true);
    expect(cb.body.charge).toMatchObject({ state: 'cancelled', final: true, endCode: 'CANCELLED_AT_COUNTER' });
    // Its callbacks arrived in order: queued, then cancelled.
    await env.receiver.until((r) => r.body.charge.reference === 'SEEN-2' && r.body.event.sequence === 1);
    const mine = env.receiver.acked().filter((r) => r.body.charge.reference === 'SEEN-2');
    expect(mine.map((r) => [r.body.event.sequence, r.body.event.to])).toEqual([
      [1, 'queued'],
      [2, 'cancelled'],
    ]);
    expect(env.sb.listPosOrders().some((o) => o.outOrderNo === made.body.outOrderNo)).toBe(false);

    // Only a box office's queued charge: the cashier's own sale is NOT_FOUND here, one on the terminal CONFLICT.
    const onIt = env.core.checkout.listOpen().find((o) => o.state === 'waiting')!;
    expect(await codeOf(call(env.core, 'integrations.cancelQueued', { orderId: onIt.id }))).toBe('CONFLICT');
  });
});

describe('a queued charge is bound to a terminal when it is sent', () => {
  it('the counter changes terminals: the charge queued for the old one is refused TERMINAL_CHANGED, never sent there', async () => {
    const env = await counter();
    const { key } = env.paired[0]!;
    const first = await onTheTerminal(env, key, 'MOVE-1');
    const made = await api<ChargeView>(env.base, key, 'POST', '/v1/charges', charge('MOVE-2'));
    expect(made.body.state).toBe('queued');
    const id = orderOf(env, made.body).id;

    // The cashier switches the counter to another terminal; the customer then cancels the first
    // payment on the old one, which frees it.
    await call(env.core, 'terminal.configure', { source: 'manual', manualSn: 'DEMO-POS-0002' });
    env.sb.present(env.sn, 'CANCEL');
    await orderWhen(env.core, first.id, (v) => v.state === 'cancelled');

    const ended = await orderWhen(env.core, id, (v) => v.state !== 'queued');
    expect(ended).toMatchObject({
      state: 'cancelled',
      reason: expect.stringMatching(/^Not sent: the counter changed terminals/),
    });
    expect(env.sb.listPosOrders().some((o) => o.outOrderNo === made.body.outOrderNo)).toBe(false);
    const cb = await env.receiver.until((r) => r.body.charge.reference === 'MOVE-2' && r.body.event.to === 'cancelled');
    expect(cb.signatureOk).toBe(true);
    expect(cb.body.charge).toMatchObject({ endCode: 'TERMINAL_CHANGED', final: true });
  });
});
