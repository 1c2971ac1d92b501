// The sandbox config schema: defaults, cross-checks that name the bad field, the file loader,
// and the generated demo configuration.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SandboxConfigError, loadConfigFile, parseSandboxConfig } from '../../../sandbox/config';
import { generateDemoConfig } from '../../../sandbox/demo-config';
import { testConfig } from '../../helpers/sandbox-client-helpers';

const dir = mkdtempSync(join(tmpdir(), 'cp-sandbox-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function errorOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(SandboxConfigError);
    return (e as Error).message;
  }
  throw new Error('expected a SandboxConfigError');
}

describe('sandbox config schema', () => {
  it('fills the defaults', () => {
    const c = parseSandboxConfig(
      testConfig((x) => {
        delete x.webhooks;
        delete x.bills.settleAfterMs;
      }),
    );
    expect(c.host).toBe('127.0.0.1');
    expect(c.bills.settleAfterMs).toBe(1500);
    expect(c.bills.bulkStatusAuth).toBe('either');
    expect(c.pos.responseSignForm).toBe('sortedKv');
    expect(c.pos.terminals[1]).toEqual({ sn: 'TERM-9', merchantId: 'BR-2', autoOutcome: null, autoAfterMs: 0 });
    expect(c.webhooks.retryScheduleMs.length).toBeGreaterThan(0);
    expect(c.faults).toEqual([]);
  });

  it('names the offending field for each kind of mistake', () => {
    expect(errorOf(() => parseSandboxConfig(testConfig((c) => (c.pos.terminals![0]!.merchantId = 'X'))))).toMatch(
      /pos\.terminals\[0\]\.merchantId: "X" is not a branch/,
    );
    expect(errorOf(() => parseSandboxConfig(testConfig((c) => (c.pos.providerPrivateKey = 'nonsense'))))).toMatch(
      /pos\.providerPrivateKey: must be an RSA private key/,
    );
    expect(
      errorOf(() => parseSandboxConfig(testConfig((c) => (c.pos.merchants![0]!.merchantPublicKey = 'nope')))),
    ).toMatch(/pos\.merchants\[0\]\.merchantPublicKey/);
    expect(
      errorOf(() =>
        parseSandboxConfig(
          testConfig((c) => (c.bills.bettingProviders![0]!.minAmount = { currency: 'NGN', amount: 99_999_999 })),
        ),
      ),
    ).toMatch(/minAmount is above maxAmount/);
    expect(
      errorOf(() => parseSandboxConfig(testConfig((c) => (c.bills.bettingCustomers![0]!.provider = 'ZZ')))),
    ).toMatch(/bills\.bettingCustomers\[0\]\.provider/);
    expect(
      errorOf(() => parseSandboxConfig(testConfig((c) => (c.pos.terminals![0]!.autoOutcome = 'MAYBE' as never)))),
    ).toMatch(/pos\.terminals\[0\]\.autoOutcome/);
    expect(
      errorOf(() => parseSandboxConfig(testConfig((c) => ((c as Record<string, unknown>).colour = 'blue')))),
    ).toMatch(/colour/);
    expect(errorOf(() => parseSandboxConfig(testConfig((c) => (c.faults = [{ path: '*', kind: 'latency' }]))))).toMatch(
      /faults\[0\]\.latencyMs/,
    );
    expect(
      errorOf(() => parseSandboxConfig(testConfig((c) => c.pos.terminals!.push({ sn: 'TERM-1', merchantId: 'BR-1' })))),
    ).toMatch(/duplicate terminal sn "TERM-1"/);
  });

  it('loads a file, and says clearly when it is missing or not JSON', () => {
    const good = join(dir, 'good.json');
    writeFileSync(good, JSON.stringify(testConfig()));
    expect(loadConfigFile(good).pos.terminals).toHaveLength(2);
    expect(errorOf(() => loadConfigFile(join(dir, 'missing.json')))).toMatch(/Cannot read the sandbox config/);
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"port": 7070,');
    expect(errorOf(() => loadConfigFile(bad))).toMatch(/is not valid JSON/);
  });
});

describe('demo configuration', () => {
  it('is valid and holds what the Demo profile needs', () => {
    const { config, merchant } = generateDemoConfig();
    const c = parseSandboxConfig(config);
    expect(c.bills.settleAfterMs).toBe(1500);
    expect(c.pos.terminals).toHaveLength(2);
    expect(c.pos.terminals.find((t) => t.sn === merchant.terminalSn)).toMatchObject({
      sn: 'DEMO-POS-0001',
      autoOutcome: null,
    });
    expect(c.bills.bettingProviders).toHaveLength(3);
    expect(c.bills.bettingProviders.filter((p) => !p.minAmount && !p.maxAmount)).toHaveLength(1);
    const failing = c.bills.failCustomers.map((f) => f.customerId);
    expect(c.bills.bettingCustomers.some((cu) => failing.includes(cu.customerId))).toBe(true);
    expect(merchant.merchantPrivateKeyPem).toMatch(/BEGIN PRIVATE KEY/);
    expect(merchant.providerPublicKeyPem).toMatch(/BEGIN PUBLIC KEY/);
    expect(c.pos.merchants[0]).toMatchObject({
      headMerchantId: merchant.headMerchantId,
      clientAuthKey: merchant.clientAuthKey,
      merchantIds: [merchant.merchantId],
    });
    expect(c.bills.merchants[0]).toEqual({
      merchantId: merchant.billsMerchantId,
      publicKey: merchant.billsPublicKey,
      secretKey: merchant.billsSecretKey,
    });
    // Fresh keys each time.
    expect(generateDemoConfig().merchant.billsSecretKey).not.toBe(merchant.billsSecretKey);
  });
});
