// Settings on the real `conf` store (same format as electron-store) and the file vault.
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { calls } from '../../../shared/contract';
import { createDispatcher } from '../../../shared/contract-kit';
import { defaultProfile } from '../../../shared/settings';
import { createCore } from '../../../core/app-core';
import { memoryLogger } from '../../../shared/logger';
import { confStore } from '../../../core/settings';
import { createSettingsService } from '../../../core/settings/settings-service';
import { fileVault } from '../../../core/settings/secret-vault';
import vectors from '../../fixtures/test-vectors.json';

const PEM = vectors.rsaKeys.merchantPrivateKey;
const PUB = vectors.rsaKeys.providerPublicKey;

let dir: string;
let now: number;
const clock = { now: () => now };
function service(logger = memoryLogger()) {
  return createSettingsService({ store: confStore(dir), vault: fileVault(join(dir, 'secrets.json')), logger, clock });
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'counterpay-settings-'));
  now = 1_763_726_400_000;
});

describe('profiles', () => {
  it('start in Demo with defaults', () => {
    const s = service();
    expect(s.activeProfile()).toBe('demo');
    expect(s.profile('production').posBaseUrl).toBe('https://payapi.opayweb.com');
    expect(s.profile('sandbox').conventions.posResponseVerify).toBe('verify');
  });

  it('round trip: saved settings and keys come back from a new service on the same files', () => {
    const s = service();
    const settings = { ...defaultProfile('sandbox'), counterName: 'Counter 3', merchantId: '256621000000002' };
    s.save('sandbox', settings, {
      billsSecretKey: 'OPAYPRV-abcdef123456',
      merchantPrivateKey: PEM,
      providerPublicKey: PUB,
    });
    const again = service();
    expect(again.profile('sandbox').counterName).toBe('Counter 3');
    const cfg = again.providerConfig('sandbox');
    expect(cfg.secrets.billsSecretKey).toBe('OPAYPRV-abcdef123456');
    expect(cfg.secrets.merchantPrivateKey).toContain('BEGIN PRIVATE KEY');
  });

  it('views never carry a key: only set + fingerprint', () => {
    const s = service();
    const view = s.save('sandbox', defaultProfile('sandbox'), {
      billsSecretKey: 'OPAYPRV-abcdef123456',
      merchantPrivateKey: PEM,
    });
    const text = JSON.stringify(view);
    expect(text).not.toContain('OPAYPRV-abcdef123456');
    expect(text).not.toContain('PRIVATE KEY');
    expect(view.secrets.billsSecretKey).toEqual({
      set: true,
      fingerprint: expect.stringMatching(/^[0-9a-f]{4}…[0-9a-f]{4}$/),
    });
    expect(view.secrets.billsPublicKey).toEqual({ set: false, fingerprint: null });
  });

  it('keys are not in the settings file, and the secrets file is readable only by the user', () => {
    service().save('sandbox', defaultProfile('sandbox'), { billsSecretKey: 'OPAYPRV-abcdef123456' });
    expect(readFileSync(join(dir, 'settings.json'), 'utf8')).not.toContain('OPAYPRV');
    expect(statSync(join(dir, 'secrets.json')).mode & 0o777).toBe(0o600);
  });

  it('a save is all or nothing: one bad field, nothing written (keys included)', () => {
    const s = service();
    s.save(
      'sandbox',
      { ...defaultProfile('sandbox'), counterName: 'Before' },
      { billsSecretKey: 'OPAYPRV-before-0001' },
    );
    let err: unknown;
    try {
      s.save(
        'sandbox',
        { ...defaultProfile('sandbox'), counterName: 'After', posBaseUrl: 'ftp://nope' },
        { billsSecretKey: 'OPAYPRV-after-0002', merchantPrivateKey: 'garbage' },
      );
    } catch (e) {
      err = e;
    }
    expect(err).toMatchObject({ code: 'VALIDATION' });
    const fields = (err as { details: { fields: Record<string, string> } }).details.fields;
    expect(Object.keys(fields).sort()).toEqual(['secrets.merchantPrivateKey', 'settings.posBaseUrl']);
    expect(s.profile('sandbox').counterName).toBe('Before');
    expect(s.providerConfig('sandbox').secrets.billsSecretKey).toBe('OPAYPRV-before-0001');
  });

  it('an empty key clears it; an absent key keeps it', () => {
    const s = service();
    s.save('sandbox', defaultProfile('sandbox'), {
      billsSecretKey: 'OPAYPRV-abcdef123456',
      billsPublicKey: 'OPAYPUB-abcdef123456',
    });
    s.save('sandbox', defaultProfile('sandbox'), { billsSecretKey: '' });
    const v = s.view('sandbox');
    expect(v.secrets.billsSecretKey.set).toBe(false);
    expect(v.secrets.billsPublicKey.set).toBe(true);
  });
});

describe('admin PIN', () => {
  it('is stored only as a slow-KDF hash', async () => {
    const s = service();
    await s.setPin('482913');
    const raw = readFileSync(join(dir, 'settings.json'), 'utf8');
    expect(raw).not.toContain('482913');
    expect(raw).toMatch(/scrypt\$32768\$8\$1\$/);
  });

  it('unlocks with the right PIN, refuses a wrong one, locks out after five', async () => {
    const s = service();
    await s.setPin('482913');
    s.lock();
    expect(() => s.requireAdmin()).toThrow(expect.objectContaining({ code: 'PIN_REQUIRED' }));
    await expect(s.unlock('000000')).rejects.toMatchObject({ code: 'PIN_WRONG' });
    expect((await s.unlock('482913')).unlocked).toBe(true);
    s.lock();
    for (let i = 0; i < 4; i++) await expect(s.unlock('111111')).rejects.toMatchObject({ code: 'PIN_WRONG' });
    await expect(s.unlock('111111')).rejects.toMatchObject({ code: 'PIN_LOCKED' });
    await expect(s.unlock('482913')).rejects.toMatchObject({ code: 'PIN_LOCKED' });
    now += 61_000;
    expect((await s.unlock('482913')).unlocked).toBe(true);
  });

  it('the unlock expires after ten idle minutes', async () => {
    const s = service();
    await s.setPin('4829');
    expect(() => s.requireAdmin()).not.toThrow();
    now += 10 * 60_000 + 1;
    expect(() => s.requireAdmin()).toThrow(expect.objectContaining({ code: 'PIN_REQUIRED' }));
  });

  it('changing the PIN needs the current one', async () => {
    const s = service();
    await s.setPin('4829');
    await expect(s.setPin('9999')).rejects.toMatchObject({ code: 'PIN_REQUIRED' });
    await expect(s.setPin('9999', '0000')).rejects.toMatchObject({ code: 'PIN_WRONG' });
    await s.setPin('9999', '4829');
    s.lock();
    expect((await s.unlock('9999')).unlocked).toBe(true);
  });
});

describe('through the contract', () => {
  it('settings calls are refused while locked, and a wrong shape changes nothing', async () => {
    const logger = memoryLogger();
    const core = await createCore({
      shell: 'browser',
      version: 't',
      dataDir: dir,
      store: confStore(dir),
      vault: fileVault(join(dir, 'secrets.json')),
      logger,
      clock,
      embeddedSandbox: false,
    });
    const ctx = { trusted: true, sender: 'test' };
    expect(await core.dispatch('settings.getProfile', { profile: 'demo' }, ctx)).toMatchObject({
      ok: false,
      error: { code: 'PIN_NOT_SET' },
    });
    expect(await core.dispatch('settings.setPin', { newPin: '2468' }, ctx)).toMatchObject({ ok: true });
    const bad = await core.dispatch(
      'settings.saveProfile',
      { profile: 'sandbox', settings: 'oops', secrets: { billsSecretKey: 'OPAYPRV-123456789' } },
      ctx,
    );
    // A form call: answered VALIDATION with the field to fix, and nothing (not even the key) saved.
    expect(bad).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION', details: { fields: { settings: expect.any(String) } } },
    });
    expect(core.settings.view('sandbox').secrets.billsSecretKey.set).toBe(false);
    const bogusProfile = await core.dispatch('settings.getProfile', { profile: 'staging' }, ctx);
    expect(bogusProfile).toMatchObject({ ok: false, error: { code: 'BAD_ARGUMENTS' } });
    expect(JSON.stringify(logger.lines)).not.toContain('2468');
    await core.stop();
  });

  it('the contract used here is the app contract', () => {
    expect(createDispatcher).toBeTypeOf('function');
    expect(Object.keys(calls)).toContain('settings.saveProfile');
  });
});
