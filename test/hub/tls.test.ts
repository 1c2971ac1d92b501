// The Hub serving HTTPS itself (--tls-cert/--tls-key): a counter that trusts the certificate
// enrolls over TLS; the certificate is made for the test with openssl (skipped, saying why, without it).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, bearer, issueCode, startTestHub, type TestHub } from './helpers/hub-harness';

const noOpenssl = (() => {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return null;
  } catch {
    return 'openssl is not installed, so no test certificate can be made';
  }
})();
if (noOpenssl) console.log(`TLS test skipped: ${noOpenssl}`);

function httpsJson(
  url: string,
  ca: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: Record<string, unknown>; hsts: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', ca, headers: { 'content-type': 'application/json', ...headers } },
      (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            json: JSON.parse(text) as Record<string, unknown>,
            hsts: res.headers['strict-transport-security'] as string | undefined,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

describe.skipIf(!!noOpenssl)('Hub over HTTPS', () => {
  let dir: string;
  let hub: TestHub;
  let cert: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hub-tls-'));
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    cert = readFileSync(join(dir, 'cert.pem'), 'utf8');
    hub = await startTestHub({ tls: { cert, key: readFileSync(join(dir, 'key.pem'), 'utf8') } });
  });
  afterAll(async () => {
    await hub?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves https and enrolls a counter that trusts its certificate', async () => {
    expect(hub.url.startsWith('https://127.0.0.1:')).toBe(true);
    expect(hub.webhookUrls.pos).toBe(`${hub.url}/provider/pos-webhook`);
    const code = await httpsJson(`${hub.url}/api/v1/admin/enroll-codes`, cert, { branch: 'B' }, bearer(ADMIN_TOKEN));
    expect(code.status).toBe(200);
    const r = await httpsJson(`${hub.url}/api/v1/enroll`, cert, {
      code: code.json.code,
      counterName: 'TLS',
      branch: 'B',
      appVersion: '1',
    });
    expect(r.status).toBe(200);
    expect(r.json.credential).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Under TLS every answer tells browsers to keep to HTTPS (issue 21, Info).
    expect(r.hsts).toBe('max-age=31536000');
    expect(code.hsts).toBe('max-age=31536000');
    await expect(issueCode(hub)).rejects.toThrow(); // a client that does not trust the certificate is refused
  });
});
