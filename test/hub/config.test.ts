// The Hub's command line: every option in --help, the plain-HTTP public bind refused, merchant keys
// read from a file or the environment (never a private key), clear errors for wrong values.
import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, HELP, parseHubArgs } from '../../hub/config';

const pub = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
}).publicKey;
const err = (argv: string[], env: NodeJS.ProcessEnv = {}) => {
  try {
    parseHubArgs(argv, env);
    return 'no error';
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as Error).message;
  }
};

describe('hub command line', () => {
  it('--help lists every option', () => {
    for (const o of [
      '--port',
      '--host',
      '--data-dir',
      '--database-url',
      '--tls-cert',
      '--tls-key',
      '--log-level',
      '--insecure-http',
      '--merchant-config',
      '--admin-token-file',
      '--retention-days',
      '--counter-rate',
    ]) {
      expect(HELP).toContain(o);
    }
    expect(parseHubArgs(['--help'], {}).command).toBe('help');
  });

  it('refuses plain HTTP on a public address unless --insecure-http', () => {
    expect(err(['--host', '0.0.0.0'])).toContain('refusing plain HTTP on 0.0.0.0');
    expect(parseHubArgs(['--host', '0.0.0.0', '--insecure-http'], {}).host).toBe('0.0.0.0');
    expect(parseHubArgs(['--host', '127.0.0.1'], {}).tls).toBeNull();
    expect(err(['--tls-cert', 'x.pem'])).toContain('both --tls-cert and --tls-key');
  });

  it('reads the merchant keys from a config file or the environment, and needs both', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hub-cfg-'));
    writeFileSync(join(dir, 'p.pem'), pub);
    writeFileSync(
      join(dir, 'm.json'),
      JSON.stringify({ clientAuthKey: 'cak-1', providerPublicKeyFile: join(dir, 'p.pem') }),
    );
    expect(parseHubArgs(['--merchant-config', join(dir, 'm.json')], {}).merchant?.clientAuthKey).toBe('cak-1');
    expect(
      parseHubArgs([], { HUB_CLIENT_AUTH_KEY: 'cak-2', HUB_PROVIDER_PUBLIC_KEY: pub }).merchant?.clientAuthKey,
    ).toBe('cak-2');
    expect(parseHubArgs([], {}).merchant).toBeNull();
    expect(err([], { HUB_CLIENT_AUTH_KEY: 'cak-2' })).toContain('give both');
    expect(err([], { HUB_CLIENT_AUTH_KEY: 'c', HUB_PROVIDER_PUBLIC_KEY: 'not a key!' })).toContain('not a valid');
    writeFileSync(join(dir, 'bad.json'), JSON.stringify({ clientAuthKey: 'c', merchantPrivateKey: 'x' }));
    expect(err(['--merchant-config', join(dir, 'bad.json')])).toContain('merchant config');
    writeFileSync(join(dir, 'broken.json'), '{clientAuthKey:');
    expect(err(['--merchant-config', join(dir, 'broken.json')])).toContain('is not valid JSON');
  });

  it("reads providerPublicKeyFile relative to the merchant file's own folder, not the current one", () => {
    const dir = mkdtempSync(join(tmpdir(), 'hub-cfg-rel-'));
    mkdirSync(join(dir, 'keys'));
    writeFileSync(join(dir, 'keys', 'provider.pem'), pub);
    writeFileSync(
      join(dir, 'merchant.json'),
      JSON.stringify({ clientAuthKey: 'cak-rel', providerPublicKeyFile: 'keys/provider.pem' }),
    );
    // The test runs from the repository root: keys/provider.pem does not exist there.
    expect(parseHubArgs(['--merchant-config', join(dir, 'merchant.json')], {}).merchant?.clientAuthKey).toBe('cak-rel');
  });

  it('says what is wrong with a value', () => {
    expect(err(['--port', 'eighty'])).toContain('--port must be a whole number');
    expect(parseHubArgs([], {}).counterRate).toBe(600);
    expect(parseHubArgs(['--counter-rate', '6000'], {}).counterRate).toBe(6000);
    expect(err(['--counter-rate', '0'])).toContain('--counter-rate must be a whole number from 10');
    expect(err(['--log-level', 'loud'])).toContain('--log-level loud');
    expect(err(['frobnicate'])).toContain('unknown command');
    expect(err(['revoke-counter'])).toContain('needs the counter id');
    expect(err([], { HUB_ADMIN_TOKEN: 'short' })).toContain('at least 24');
    expect(err([], { HUB_ADMIN_TOKEN: 'abc+def/ghi=jkl0123456789012' })).toContain('only letters, digits, - and _');
    expect(parseHubArgs(['--trust-proxy', '127.0.0.1, 10.0.0.0/8,::1'], {}).trustProxy).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
      '::1',
    ]);
    expect(parseHubArgs([], {}).trustProxy).toEqual([]);
    expect(err(['--trust-proxy', 'proxy.example'])).toContain('--trust-proxy takes addresses or CIDRs');
    expect(err(['--trust-proxy', '10.0.0.0/33'])).toContain('--trust-proxy takes addresses or CIDRs');
    expect(parseHubArgs(['--public-url', 'https://Hub.Example.ng/, http://10.0.0.5:8790'], {}).publicUrls).toEqual([
      'https://hub.example.ng',
      'http://10.0.0.5:8790',
    ]);
    expect(parseHubArgs([], { HUB_PUBLIC_URL: 'https://hub.example.ng:443' }).publicUrls).toEqual([
      'https://hub.example.ng',
    ]);
    expect(err(['--public-url', 'hub.example.ng'])).toContain('--public-url takes');
    expect(err(['--public-url', 'https://hub.example.ng/dashboard'])).toContain('--public-url takes');
    expect(parseHubArgs(['--database-url', 'postgres://h/db', '--retention-days', '30'], {})).toMatchObject({
      databaseUrl: 'postgres://h/db',
      retentionDays: 30,
    });
  });
});
