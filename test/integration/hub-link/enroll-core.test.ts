// Joining a counter to a real Hub (PGlite in memory, HTTP on loopback) through the composed core, as
// the browser shell builds it: the credential goes to the vault and nowhere else (not settings, not a
// view, not an event, not a log line); each way enrollment can fail says what to do; a counter the
// manager removed learns it on its next call; a restarted core is still enrolled.
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../../core/app-core';
import { systemClock } from '../../../shared/clock';
import { memoryLogger } from '../../../shared/logger';
import { confStore, fileVault } from '../../../core/settings';
import type { StatusSnapshot } from '../../../shared/contract';
import type { HubLinkView } from '../../../shared/hub-link';
import { ADMIN_TOKEN, bearer, issueCode, post, startTestHub, type TestHub } from '../../hub/helpers/hub-harness';

const ctx = { trusted: true, sender: 'test' };
const PIN = '2468';

interface Booted {
  core: Core;
  dir: string;
  logger: ReturnType<typeof memoryLogger>;
  /** Every event payload the core sent, as the screens would get it. */
  sent: string[];
}
const cores: Core[] = [];

async function boot(dir = mkdtempSync(join(tmpdir(), 'counterpay-hub-'))): Promise<Booted> {
  const logger = memoryLogger();
  const core = await createCore({
    shell: 'browser',
    version: '0.9.0-test',
    dataDir: dir,
    store: confStore(dir),
    vault: fileVault(join(dir, 'secrets.json')),
    logger,
    clock: systemClock,
  });
  cores.push(core);
  const sent: string[] = [];
  core.events.subscribe((name, payload) => sent.push(`${name} ${JSON.stringify(payload)}`));
  return { core, dir, logger, sent };
}

async function stopCore(core: Core): Promise<void> {
  cores.splice(cores.indexOf(core), 1);
  await core.stop();
}

async function call<T>(core: Core, name: string, args: unknown = {}): Promise<T> {
  const r = await core.dispatch(name, args, ctx);
  if (!r.ok) throw Object.assign(new Error(`${name}: ${r.error.code} ${r.error.message}`), { error: r.error });
  return r.value as T;
}

async function refusal(
  core: Core,
  name: string,
  args: unknown,
): Promise<{ code: string; message: string; details?: Record<string, unknown> }> {
  const r = await core.dispatch(name, args, ctx);
  if (r.ok) throw new Error(`${name} was expected to fail`);
  return r.error;
}

async function unlocked(): Promise<Booted> {
  const b = await boot();
  await call(b.core, 'settings.setPin', { newPin: PIN });
  return b;
}

/** Resolves with the first `hub.changed` view that passes `ok` (now or later). */
function hubReaches(core: Core, ok: (v: HubLinkView) => boolean): Promise<HubLinkView> {
  return new Promise((resolve) => {
    const off = core.events.subscribe((name, payload) => {
      if (name === 'hub.changed' && ok(payload as HubLinkView)) {
        off();
        resolve(payload as HubLinkView);
      }
    });
    void call<HubLinkView>(core, 'hub.status').then((v) => {
      if (ok(v)) {
        off();
        resolve(v);
      }
    });
  });
}

let hub: TestHub;
let notAHub: Server;
let notAHubUrl: string;
beforeAll(async () => {
  hub = await startTestHub();
  // A real web server that is not a Hub: a router's page, say.
  notAHub = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<html><body>Router login</body></html>');
  });
  await new Promise<void>((r) => notAHub.listen(0, '127.0.0.1', () => r()));
  notAHubUrl = `http://127.0.0.1:${(notAHub.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await hub?.stop();
  await new Promise((r) => notAHub?.close(r));
});
afterEach(async () => {
  while (cores.length) await cores.pop()!.stop();
  // Each test's PCs share the demo profile's name ("Counter 1"): the Hub takes one live counter per
  // counter code, so the next test's PC joins once this one's are removed, as a manager would.
  const listed = await fetch(`${hub.url}/api/v1/admin/counters`, { headers: bearer(ADMIN_TOKEN) }).then(
    (r) => r.json() as Promise<{ counters: { id: string; revokedAt: number | null }[] }>,
  );
  for (const c of listed.counters.filter((x) => x.revokedAt === null))
    await post(`${hub.url}/api/v1/admin/counters/${c.id}/revoke`, {}, bearer(ADMIN_TOKEN));
});

describe('joining a Hub from the counter', () => {
  it('a real code enrolls the counter; the credential is in the vault only, never in settings, a view, an event or a log', async () => {
    const b = await unlocked();
    const before = await call<HubLinkView>(b.core, 'hub.status');
    expect(before).toMatchObject({ state: 'not-set-up', hubUrl: null });
    expect((await call<StatusSnapshot>(b.core, 'status.get')).hub.state).toBe('not-set-up');

    const code = await issueCode(hub);
    // Typed as a tired cashier would: lower case, no dashes, a trailing slash on the address.
    const view = await call<HubLinkView>(b.core, 'hub.enroll', {
      hubUrl: `${hub.url}/`,
      code: code.toLowerCase().replace(/-/g, ''),
    });
    const demo = await call<{ settings: { merchantId: string; counterName: string } }>(b.core, 'settings.getProfile', {
      profile: 'demo',
    });
    expect(view).toMatchObject({
      hubUrl: hub.url,
      branch: demo.settings.merchantId,
      counterName: demo.settings.counterName,
      revokedAt: null,
    });
    expect(view.counterId).toMatch(/^ctr_/);
    expect(['connecting', 'connected', 'offline']).toContain(view.state);
    // A plain-http loopback address is allowed for a lab, with a warning.
    expect(view.warnings.join(' ')).toContain('http://');

    // The Hub holds the counter under the profile's branch and name.
    const listed = await fetch(`${hub.url}/api/v1/admin/counters`, { headers: bearer(ADMIN_TOKEN) }).then(
      (r) => r.json() as Promise<{ counters: { id: string; name: string; branch: string }[] }>,
    );
    expect(listed.counters.find((c) => c.id === view.counterId)).toMatchObject({
      name: demo.settings.counterName,
      branch: demo.settings.merchantId,
    });

    const secrets = JSON.parse(readFileSync(join(b.dir, 'secrets.json'), 'utf8')) as Record<
      string,
      Record<string, string>
    >;
    const credential = secrets.hub?.credential ?? '';
    expect(credential).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The credential works on the Hub, so it is the real one.
    expect((await fetch(`${hub.url}/api/v1/me`, { headers: bearer(credential) })).status).toBe(200);

    const settingsFile = readFileSync(join(b.dir, 'settings.json'), 'utf8');
    expect(settingsFile).toContain(view.counterId!);
    expect(settingsFile).not.toContain(credential);
    await call(b.core, 'hub.checkNow');
    const everything = [
      JSON.stringify(await call(b.core, 'hub.status')),
      JSON.stringify(await call(b.core, 'status.get')),
      JSON.stringify(b.logger.lines),
      ...b.sent,
    ].join('\n');
    expect(everything).not.toContain(credential);
    expect(everything).not.toContain(code);
    expect(b.logger.lines.some((l) => l.msg.includes('hub: counter enrolled'))).toBe(true);
    // Once the Hub answered "who am I", the view says so.
    expect((await call<HubLinkView>(b.core, 'hub.status')).lastCheck).toMatchObject({ ok: true });
  });

  it('needs the admin PIN', async () => {
    const b = await boot();
    await call(b.core, 'settings.setPin', { newPin: PIN });
    await call(b.core, 'settings.lock');
    expect((await refusal(b.core, 'hub.enroll', { hubUrl: hub.url, code: 'ABCD-EFGH-JKLM' })).code).toBe(
      'PIN_REQUIRED',
    );
    expect((await refusal(b.core, 'hub.leave', {})).code).toBe('PIN_REQUIRED');
  });

  it("a wrong code, another branch's code, a used code and an expired code are refused with what to do, and nothing is kept", async () => {
    const b = await unlocked();
    const wrong = await refusal(b.core, 'hub.enroll', { hubUrl: hub.url, code: 'ABCD-EFGH-JKLM' });
    expect(wrong).toMatchObject({
      code: 'HUB_CODE_INVALID',
      details: { fields: { code: expect.stringContaining('new code') } },
    });
    expect(wrong.message).toContain('Ask the manager for a new code');

    // A code for another branch than the profile's merchant id says so.
    const elsewhere = await refusal(b.core, 'hub.enroll', {
      hubUrl: hub.url,
      code: await issueCode(hub, 60, 'ANOTHER-BRANCH'),
    });
    expect(elsewhere).toMatchObject({
      code: 'HUB_CODE_INVALID',
      details: { fields: { code: expect.stringContaining('For branch ANOTHER-BRANCH') } },
    });
    expect(elsewhere.message).toContain('This code is for branch ANOTHER-BRANCH');

    const used = await issueCode(hub);
    await post(`${hub.url}/api/v1/enroll`, { code: used, counterName: 'Other', branch: 'B-1', appVersion: '1' });
    expect((await refusal(b.core, 'hub.enroll', { hubUrl: hub.url, code: used })).code).toBe('HUB_CODE_INVALID');

    const expiring = await issueCode(hub, 1);
    hub.clock.offsetMs = 2 * 60_000;
    try {
      expect((await refusal(b.core, 'hub.enroll', { hubUrl: hub.url, code: expiring })).code).toBe('HUB_CODE_INVALID');
    } finally {
      hub.clock.offsetMs = 0;
    }
    expect(await call<HubLinkView>(b.core, 'hub.status')).toMatchObject({ state: 'not-set-up', hubUrl: null });
    expect(readFileSync(join(b.dir, 'settings.json'), 'utf8')).not.toContain('"hub"');
  });

  it('a malformed code or address is refused next to its field before anything is sent', async () => {
    const b = await unlocked();
    const r = await refusal(b.core, 'hub.enroll', { hubUrl: 'http://hub.example.com', code: 'ABC' });
    expect(r.code).toBe('VALIDATION');
    const fields = (r.details as { fields: Record<string, string> }).fields;
    expect(fields.hubUrl).toContain('https://');
    expect(fields.code).toContain('ABCD-EFGH-JKLM');
  });

  it('an address that is not a Hub, and a Hub that is down, each say so', async () => {
    const b = await unlocked();
    const code = await issueCode(hub);
    const notHub = await refusal(b.core, 'hub.enroll', { hubUrl: notAHubUrl, code });
    expect(notHub).toMatchObject({
      code: 'HUB_NOT_A_HUB',
      details: { fields: { hubUrl: 'This address is not a CounterPay Hub' } },
    });
    expect(notHub.message).toContain('not a CounterPay Hub');

    const gone = await startTestHub();
    const goneUrl = gone.url;
    await gone.stop();
    const down = await refusal(b.core, 'hub.enroll', { hubUrl: goneUrl, code });
    expect(down.code).toBe('HUB_UNREACHABLE');
    expect(down.message).toContain('that the Hub is running');
    expect((await call<HubLinkView>(b.core, 'hub.status')).state).toBe('not-set-up');
    // The code was not spent by the failed tries: it still enrolls.
    expect((await call<HubLinkView>(b.core, 'hub.enroll', { hubUrl: hub.url, code })).counterId).toMatch(/^ctr_/);
  });

  it('a counter removed on the Hub is told so on its next call, stops, and can join again with a new code', async () => {
    const b = await unlocked();
    const view = await call<HubLinkView>(b.core, 'hub.enroll', { hubUrl: hub.url, code: await issueCode(hub) });
    await post(`${hub.url}/api/v1/admin/counters/${view.counterId}/revoke`, {}, bearer(ADMIN_TOKEN));
    const after = await call<HubLinkView>(b.core, 'hub.checkNow');
    expect(after).toMatchObject({ state: 'revoked', relay: 'off', sync: 'off' });
    expect(after.detail).toBe(
      'This counter was removed from the Hub by its manager. Sales go on; ask the manager for a new code.',
    );
    const bar = await call<StatusSnapshot>(b.core, 'status.get');
    expect(bar.hub.state).toBe('revoked');
    // The useless credential is forgotten.
    expect(JSON.parse(readFileSync(join(b.dir, 'secrets.json'), 'utf8')).hub?.credential).toBeUndefined();
    expect(b.logger.lines.some((l) => l.level === 'warn' && l.fields?.code === 'HUB_COUNTER_REVOKED')).toBe(true);

    const again = await call<HubLinkView>(b.core, 'hub.enroll', { hubUrl: hub.url, code: await issueCode(hub) });
    expect(again.state).not.toBe('revoked');
    expect(again.counterId).not.toBe(view.counterId);
  });

  it('a second enrollment is refused until the counter leaves; leaving forgets the credential', async () => {
    const b = await unlocked();
    await call(b.core, 'hub.enroll', { hubUrl: hub.url, code: await issueCode(hub) });
    const twice = await refusal(b.core, 'hub.enroll', { hubUrl: hub.url, code: await issueCode(hub) });
    expect(twice.code).toBe('CONFLICT');
    expect(twice.message).toContain('Leave that Hub first');
    const left = await call<HubLinkView>(b.core, 'hub.leave');
    expect(left).toMatchObject({ state: 'not-set-up', hubUrl: null, counterId: null });
    expect(JSON.parse(readFileSync(join(b.dir, 'secrets.json'), 'utf8')).hub?.credential).toBeUndefined();
    expect((await call<StatusSnapshot>(b.core, 'status.get')).hub.state).toBe('not-set-up');
  });

  it('a second PC with the same counter name is refused next to the name, nothing is kept, and joins once renamed', async () => {
    const first = await unlocked();
    const v1 = await call<HubLinkView>(first.core, 'hub.enroll', { hubUrl: hub.url, code: await issueCode(hub) });
    const b = await unlocked();
    const code = await issueCode(hub);
    const taken = await refusal(b.core, 'hub.enroll', { hubUrl: hub.url, code });
    expect(taken.code).toBe('HUB_NAME_TAKEN');
    expect(taken.message).toMatch(
      /^This counter's name gives the same code \(\w+\) as another counter's on the Hub: change its name in Settings → Edit Demo → Counter name, then join again\.$/,
    );
    const p = await call<{ settings: { counterName: string } & Record<string, unknown> }>(
      b.core,
      'settings.getProfile',
      { profile: 'demo' },
    );
    const fields = (taken.details as { fields: Record<string, string> }).fields;
    expect(fields.counterName).toContain(
      `is taken by "${p.settings.counterName}" (branch ${v1.branch}): choose a name that gives another code, e.g. "`,
    );
    expect(fields.counterName).toContain('or revoke the old counter on the Counters screen first.');
    expect(await call<HubLinkView>(b.core, 'hub.status')).toMatchObject({ state: 'not-set-up', hubUrl: null });
    // Renamed, the same code (not spent by the refusal) joins it.
    await call(b.core, 'settings.saveProfile', {
      profile: 'demo',
      settings: { ...p.settings, counterName: 'Ikeja Counter 1' },
    });
    expect((await call<HubLinkView>(b.core, 'hub.enroll', { hubUrl: hub.url, code })).counterName).toBe(
      'Ikeja Counter 1',
    );
  });

  it('a restarted core is still enrolled, and asks the Hub who it is at start', async () => {
    const b = await unlocked();
    const view = await call<HubLinkView>(b.core, 'hub.enroll', { hubUrl: hub.url, code: await issueCode(hub) });
    await stopCore(b.core);
    const again = await boot(b.dir);
    const checked = await hubReaches(again.core, (v) => v.lastCheck !== null);
    expect(checked).toMatchObject({
      hubUrl: hub.url,
      counterId: view.counterId,
      branch: view.branch,
      enrolledAt: view.enrolledAt,
      lastCheck: { ok: true },
    });
    expect(checked.state).not.toBe('not-set-up');
  });

  it('the Hub going down after enrollment shows offline once the counter asks', async () => {
    const own = await startTestHub();
    const b = await unlocked();
    await call(b.core, 'hub.enroll', { hubUrl: own.url, code: await issueCode(own) });
    await own.stop();
    const v = await call<HubLinkView>(b.core, 'hub.checkNow');
    expect(v.state).toBe('offline');
    expect(v.detail).toContain('Sales go on');
    expect((await call<StatusSnapshot>(b.core, 'status.get')).hub).toMatchObject({ state: 'offline' });
  });
});
