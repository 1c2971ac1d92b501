// The integration API of the composed core against hostile or unusual callers, over real loopback
// HTTP: references percent-encoded in the path (as OpenAPI clients send them), a flood of wrong
// keys (only failures slowed per address, a right key always answered; logged once then summarised), and callback
// URLs (only where the administrator pointed the system; the delivery log does not tell a closed
// port from any other failure).
import { mkdtempSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../../core/app-core';
import { confStore } from '../../../browser-shell/boot';
import { fileVault } from '../../../core/settings/secret-vault';
import { systemClock } from '../../../shared/clock';
import { memoryLogger } from '../../../shared/logger';
import type { ChargeView, Delivery } from '../../../shared/integration';
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
  if (!r.ok) throw new Error(`${name}: ${r.error.code} ${r.error.message}`);
  return r.value as T;
}

/** A Demo counter with a box office paired with `callbackUrl` ('' for none). */
async function pairedCounter(callbackUrl: string | ((r: CallbackReceiver) => string) = '') {
  const dir = mkdtempSync(join(tmpdir(), 'counterpay-int-doors-'));
  const logger = memoryLogger();
  // Resolves when a line matching `re` is (or was) logged: the test waits on the log, not on time.
  const waiters: { re: RegExp; ok: () => void }[] = [];
  const warn = logger.warn;
  logger.warn = (msg, fields) => {
    warn(msg, fields);
    for (const w of [...waiters]) {
      if (!w.re.test(msg)) continue;
      waiters.splice(waiters.indexOf(w), 1);
      w.ok();
    }
  };
  const logged = (re: RegExp) =>
    new Promise<void>((ok) => (logger.lines.some((l) => re.test(l.msg)) ? ok() : waiters.push({ re, ok })));
  const core = await createCore({
    shell: 'browser',
    version: 't',
    dataDir: dir,
    store: confStore(dir),
    vault: fileVault(join(dir, 'secrets.json')),
    logger,
    clock: systemClock,
    // Failed attempts refill once in 1,000 s: the test's count does not depend on how fast it runs.
    integrations: {
      port: 0,
      callbackBackoff: { baseMs: 20, maxMs: 200 },
      attemptLimits: { burst: 10, perSecond: 0.001 },
    },
  });
  cores.push(core);
  // A box office's charge, like any sale, needs an open shift.
  await ensureShift((name, args) => call(core, name, args));
  await call(core, 'settings.setPin', { newPin: '2468' });
  let key = '';
  const receiver = await startCallbackReceiver(() => key);
  receivers.push(receiver);
  const url = typeof callbackUrl === 'function' ? callbackUrl(receiver) : callbackUrl;
  const paired = await call<{ id: string; key: string }>(core, 'integrations.pair', {
    name: 'Box office',
    callbackUrl: url,
  });
  key = paired.key;
  return { core, logger, logged, receiver, key, base: core.integrations.apiUrl()! };
}

const closedPort = () =>
  new Promise<number>((ok) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => ok(port));
    });
  });

describe('percent-encoded references in the path', () => {
  it('COLL:1 sent as COLL%3A1 (and a long reference full of colons) is read, waited on and its deliveries listed', async () => {
    const { key, base } = await pairedCounter();
    const long = `CINEMA:LAGOS:2026-11-27:SCREEN-3:SHOW-1930:BOOKING-${'0'.repeat(13)}`;
    expect(long.length).toBe(64);
    for (const ref of ['COLL:1', long]) {
      expect((await api(base, key, 'POST', '/v1/charges', twoSeats(ref))).status).toBe(201);
      const enc = encodeURIComponent(ref);
      expect(await api<ChargeView>(base, key, 'GET', `/v1/charges/${enc}`)).toMatchObject({
        status: 200,
        body: { reference: ref },
      });
      expect(await api<ChargeView>(base, key, 'GET', `/v1/charges/${enc}/wait?after=0&timeoutSeconds=0`)).toMatchObject(
        { status: 200, body: { reference: ref } },
      );
      expect(await api(base, key, 'GET', `/v1/charges/${enc}/deliveries`)).toMatchObject({
        status: 200,
        body: { reference: ref },
      });
      // Sent as it is, it is the same charge.
      expect(await api<ChargeView>(base, key, 'GET', `/v1/charges/${ref}`)).toMatchObject({
        status: 200,
        body: { reference: ref },
      });
    }
    // A malformed escape is a charge that is not there (404), not an error of the counter.
    expect(await api(base, key, 'GET', '/v1/charges/BK%E0%A4%A')).toMatchObject({
      status: 404,
      body: { error: { code: 'NOT_FOUND' } },
    });
  });
});

describe('wrong keys', () => {
  it('an address sending wrong keys is answered 429 after 10, but only for wrong keys (a right key is checked first and answered), logged once and then summarised', async () => {
    const { core, key, base, logger } = await pairedCounter();
    const answers = [];
    for (let i = 0; i < 30; i++)
      answers.push(await api(base, `cpk_000000000000_${'A'.repeat(42)}${i % 10}`, 'GET', '/v1/ping'));
    expect(answers.slice(0, 10).map((a) => a.status)).toEqual(Array(10).fill(401));
    expect(answers.slice(10).every((a) => a.status === 429)).toBe(true);
    expect(answers[29]!.body).toMatchObject({
      error: { code: 'TOO_MANY_ATTEMPTS', message: expect.stringMatching(/wait \d+ s/) },
    });
    const res = await fetch(`${base}/v1/ping`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    const unauth = () => logger.lines.filter((l) => /not authenticated/.test(l.msg));
    expect(unauth()).toHaveLength(1);
    expect(core.checkout.listToday()).toHaveLength(0);
    await cores.pop()!.stop();
    expect(unauth()).toHaveLength(2);
    expect(unauth()[1]).toMatchObject({
      msg: 'integration requests not authenticated (summary)',
      fields: { failed: 10, refusedTooMany: 20 },
    });
  });

  it('issue 36: a wrong key a second from 127.0.0.1 does not keep the real box office out: its right key is accepted 8 times out of 8', async () => {
    const { core, key, base } = await pairedCounter();
    const wrong = `cpk_000000000000_${'B'.repeat(43)}`;
    // The wrong key's burst first (the bucket refills once in 1,000 s here: "a second" without sleeping).
    for (let i = 0; i < 10; i++) expect((await api(base, wrong, 'GET', '/v1/ping')).status).toBe(401);
    const tries: number[] = [];
    const wrongs: number[] = [];
    for (let i = 0; i < 8; i++) {
      wrongs.push((await api(base, wrong, 'GET', '/v1/ping')).status);
      tries.push(
        i === 0
          ? (await api(base, key, 'POST', '/v1/charges', twoSeats('BK-THROTTLE-1'))).status
          : (await api(base, key, 'GET', i % 2 ? '/v1/ping' : '/v1/charges/BK-THROTTLE-1')).status,
      );
    }
    expect(wrongs).toEqual(Array(8).fill(429));
    expect(tries).toEqual([201, 200, 200, 200, 200, 200, 200, 200]);
    expect(core.checkout.listToday()).toHaveLength(1);
  });
});

describe('callback URLs', () => {
  it('a charge may name a callback URL only on the origin given at pairing; a system paired without one may name none', async () => {
    const { key, base, receiver } = await pairedCounter((r) => r.url);
    const origin = new URL(receiver.url).origin;
    const elsewhere = await api<{ error: { fields: Record<string, string> } }>(
      base,
      key,
      'POST',
      '/v1/charges',
      twoSeats('BK-CB1', { callbackUrl: `http://127.0.0.1:${await closedPort()}/x` }),
    );
    expect(elsewhere.status).toBe(422);
    expect(elsewhere.body.error.fields.callbackUrl).toContain(`Callbacks go only to ${origin}`);
    const lan = await api(
      base,
      key,
      'POST',
      '/v1/charges',
      twoSeats('BK-CB2', { callbackUrl: 'http://192.168.1.1/admin' }),
    );
    expect(lan.status).toBe(422);
    const same = await api(
      base,
      key,
      'POST',
      '/v1/charges',
      twoSeats('BK-CB3', { callbackUrl: `${origin}/another/path` }),
    );
    expect(same.status).toBe(201);
    await receiver.until(() => receiver.all.some((r) => r.body.charge.reference === 'BK-CB3'));

    const none = await pairedCounter('');
    const refused = await api<{ error: { fields: Record<string, string> } }>(
      none.base,
      none.key,
      'POST',
      '/v1/charges',
      twoSeats('BK-CB4', { callbackUrl: receiver.url }),
    );
    expect(refused.status).toBe(422);
    expect(refused.body.error.fields.callbackUrl).toMatch(/paired without a callback URL/);
    expect(none.core.checkout.listToday()).toHaveLength(0);
  });

  it('link-local and metadata addresses are refused at pairing and per charge', async () => {
    const { core, key, base } = await pairedCounter();
    for (const url of [
      'http://169.254.169.254/latest/meta-data',
      'http://[fe80::1]/cb',
      'http://0.0.0.0:8090/cb',
      'http://2852039166/',
    ]) {
      const r = await core.dispatch('integrations.pair', { name: 'Metadata', callbackUrl: url }, ctx);
      expect(r, url).toMatchObject({
        ok: false,
        error: {
          code: 'VALIDATION',
          details: { fields: { callbackUrl: expect.stringMatching(/link-local, metadata/) } },
        },
      });
      expect((await api(base, key, 'POST', '/v1/charges', twoSeats('BK-MD', { callbackUrl: url }))).status).toBe(422);
    }
  });

  it('the delivery log says only "could not be reached" for a closed port (the reason is in the counter\'s own log)', async () => {
    const port = await closedPort();
    const { key, base, logger, logged } = await pairedCounter(`http://127.0.0.1:${port}/cb`);
    await api(base, key, 'POST', '/v1/charges', twoSeats('BK-CLOSED'));
    await logged(/callback not acknowledged/);
    const log = (await api<{ deliveries: Delivery[] }>(base, key, 'GET', '/v1/charges/BK-CLOSED/deliveries')).body
      .deliveries;
    expect(log[0]!.lastError).toBe('the callback URL could not be reached');
    expect(JSON.stringify(logger.lines)).toMatch(/ECONNREFUSED/);
  });
});

describe('charge links', () => {
  it('the signature covers returnUrl: a link whose returnUrl was changed or removed is refused and charges nothing', async () => {
    const { core, key, receiver } = await pairedCounter((r) => r.url);
    const origin = new URL(receiver.url).origin;
    const link = chargeLink(key, twoSeats('BK-RET'), `${origin}/mine`);
    expect(link).toContain(`returnUrl=${encodeURIComponent(`${origin}/mine`)}`);
    const changed = link.replace(encodeURIComponent(`${origin}/mine`), encodeURIComponent(`${origin}/theirs`));
    const removed = link.replace(`&returnUrl=${encodeURIComponent(`${origin}/mine`)}`, '');
    expect(removed).not.toContain('returnUrl');
    for (const forged of [changed, removed]) {
      expect(await core.dispatch('integrations.openLink', { url: forged }, ctx)).toMatchObject({
        ok: false,
        error: { message: expect.stringMatching(/not signed/) },
      });
    }
    expect(core.checkout.listToday()).toHaveLength(0);
    expect(await core.dispatch('integrations.openLink', { url: link }, ctx)).toMatchObject({
      ok: true,
      value: { created: true, reference: 'BK-RET' },
    });
    const first = await receiver.until((r) => r.body.charge.reference === 'BK-RET');
    expect(first.signatureOk).toBe(true);
  });
});
