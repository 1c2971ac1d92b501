// Production refuses plain-http addresses and unchecked response signatures at save time, field by
// field; Sandbox may keep them but is warned; a webhook receiver open beyond this computer is warned.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { defaultProfile, type ProfileSettings } from '../../../shared/settings';
import { isLoopbackHost, productionProblems, profileWarnings } from '../../../shared/profile-safety';
import { memoryLogger } from '../../../shared/logger';
import { confStore } from '../../../core/settings';
import { createSettingsService } from '../../../core/settings/settings-service';
import { fileVault } from '../../../core/settings/secret-vault';

let dir: string;
const service = () =>
  createSettingsService({
    store: confStore(dir),
    vault: fileVault(join(dir, 'secrets.json')),
    logger: memoryLogger(),
    clock: { now: () => 1_763_726_400_000 },
  });
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'counterpay-safety-'));
});

const insecure = (base: ProfileSettings): ProfileSettings => ({
  ...base,
  posBaseUrl: 'http://payapi.example.com',
  billsBaseUrl: 'http://cashier.example.com/api/v3',
  conventions: { ...base.conventions, posResponseVerify: 'warn' },
  webhook: { ...base.webhook, callbackBaseUrl: 'http://counter.example.com' },
});

function saveError(fn: () => unknown): Record<string, string> {
  try {
    fn();
  } catch (e) {
    return (e as { details: { fields: Record<string, string> } }).details.fields;
  }
  throw new Error('the save was accepted');
}

describe('Production', () => {
  it('refuses http:// addresses and an unchecked response signature, each next to its field, and writes nothing', () => {
    const s = service();
    const fields = saveError(() => s.save('production', insecure(defaultProfile('production'))));
    expect(Object.keys(fields).sort()).toEqual([
      'settings.billsBaseUrl',
      'settings.conventions.posResponseVerify',
      'settings.posBaseUrl',
      'settings.webhook.callbackBaseUrl',
    ]);
    expect(fields['settings.posBaseUrl']).toMatch(/https:\/\//);
    expect(fields['settings.conventions.posResponseVerify']).toMatch(/verify/);
    expect(s.profile('production').posBaseUrl).toBe('https://payapi.opayweb.com');
  });

  it('refuses the signature check "off" too', () => {
    const p = defaultProfile('production');
    expect(productionProblems({ ...p, conventions: { ...p.conventions, posResponseVerify: 'off' } })).toHaveProperty([
      'conventions.posResponseVerify',
    ]);
    expect(productionProblems(p)).toEqual({});
  });

  it('will not become the active profile while stored settings break the rule', () => {
    const store = confStore(dir);
    store.set('profiles.production', insecure(defaultProfile('production'))); // written by an older version
    const s = service();
    expect(() => s.setActive('production')).toThrow(expect.objectContaining({ code: 'VALIDATION' }));
    expect(s.activeProfile()).toBe('demo');
  });

  it('settings stored before the rule are not used as they are: no http:// address, signatures verified', () => {
    confStore(dir).set('profiles.production', insecure(defaultProfile('production')));
    const cfg = service().providerConfig('production');
    expect(cfg.posBaseUrl).toBe('');
    expect(cfg.billsBaseUrl).toBe('');
    expect(cfg.conventions.posResponseVerify).toBe('verify');
  });
});

describe('Sandbox', () => {
  it('keeps http:// and a relaxed signature check, with a warning for each', () => {
    const s = service();
    s.save('sandbox', insecure(defaultProfile('sandbox')));
    const w = profileWarnings('sandbox', s.profile('sandbox'));
    expect(w.map((x) => x.field).sort()).toEqual([
      'billsBaseUrl',
      'conventions.posResponseVerify',
      'posBaseUrl',
      'webhook.callbackBaseUrl',
    ]);
    expect(w.find((x) => x.field === 'posBaseUrl')?.message).toMatch(/not encrypted/);
  });

  it('Demo (the embedded sandbox on this computer) is not warned', () => {
    expect(profileWarnings('demo', defaultProfile('demo'))).toEqual([]);
  });
});

describe('webhook receiver address', () => {
  it('knows loopback addresses', () => {
    for (const h of ['127.0.0.1', '127.3.2.1', '::1', '[::1]', 'localhost', 'LOCALHOST'])
      expect(isLoopbackHost(h)).toBe(true);
    for (const h of ['0.0.0.0', '::', '192.168.1.20', '10.0.0.5', 'counter.local', '128.0.0.1'])
      expect(isLoopbackHost(h)).toBe(false);
  });

  it('a receiver listening beyond this computer is warned in every profile', () => {
    const p = defaultProfile('sandbox');
    const w = profileWarnings('production', {
      ...defaultProfile('production'),
      webhook: { ...p.webhook, enabled: true, host: '0.0.0.0' },
    });
    expect(w).toEqual([{ field: 'webhook.host', message: expect.stringMatching(/other computers/) }]);
    expect(
      profileWarnings('production', {
        ...defaultProfile('production'),
        webhook: { ...p.webhook, enabled: true, host: '127.0.0.1' },
      }),
    ).toEqual([]);
  });
});
