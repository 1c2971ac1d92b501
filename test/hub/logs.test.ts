// No secret in the Hub's logs: after enrollment, sync, the relay, refused webhooks and admin calls at
// the most verbose level, no credential, clientAuthKey, admin token or key appears. And the log
// file rotates by size.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { rotatingFile } from '../../hub/log-file';
import {
  ADMIN_TOKEN,
  bearer,
  enroll,
  get,
  issueCode,
  makeMerchant,
  posWebhook,
  post,
  sendPosWebhook,
  startTestHub,
} from './helpers/hub-harness';
import { RelayClient } from './helpers/sse-client';

describe('hub logs', () => {
  it('carry no secret, even at trace level', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'trace' }, { write: (l: string) => void lines.push(l) });
    const merchant = makeMerchant();
    const hub = await startTestHub({ logger, merchant });
    try {
      const code = await issueCode(hub);
      const c = await enroll(hub, 'Logged', 'BR-L');
      await get(`${hub.url}/api/v1/me`, bearer(c.credential));
      const st = { appVersion: '1', profile: 'live', sentAt: Date.now(), queueLength: 0, openPayments: 0 };
      await post(
        `${hub.url}/api/v1/sync`,
        {
          events: [
            {
              seq: 1,
              kind: 'order.created',
              at: Date.now(),
              payload: { reference: 'LOG-250101-0001', orderNo: 'LOG-1', amountKobo: 1000, sn: 'SN' },
            },
          ],
          status: st,
        },
        bearer(c.credential),
      );
      const s = new RelayClient(hub.url, c.credential);
      await s.connect();
      await sendPosWebhook(hub, posWebhook(merchant, { tranId: 'LOG-1', branch: 'BR-L' }));
      await sendPosWebhook(
        hub,
        posWebhook(merchant, { tranId: 'LOG-2', branch: 'BR-L', clientAuthKey: `${merchant.clientAuthKey}x` }),
      );
      await s.until(() => s.notifications.length === 1);
      await s.disconnect();
      await post(
        `${hub.url}/api/v1/sync`,
        {
          events: [],
          status: { appVersion: '1', profile: 'live', sentAt: Date.now(), queueLength: 0, openPayments: 0 },
        },
        bearer(c.credential),
      );
      await post(`${hub.url}/api/v1/admin/counters/${c.counterId}/revoke`, {}, bearer(ADMIN_TOKEN));
      const text = lines.join('');
      expect(text).toContain('counter enrolled'); // the log is really captured
      expect(text).toContain('provider notification refused');
      for (const secret of [c.credential, ADMIN_TOKEN, merchant.clientAuthKey, code])
        expect(text).not.toContain(secret);
      expect(text).not.toContain('PRIVATE KEY');
    } finally {
      await hub.stop();
    }
  });

  it('the log file rotates by size and keeps a fixed number of old files', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hub-log-'));
    try {
      const f = join(dir, 'hub.log');
      const log = rotatingFile(f, 100, 2);
      for (let i = 0; i < 10; i++) log.write(`${JSON.stringify({ i, pad: 'x'.repeat(30) })}\n`);
      expect(existsSync(`${f}.1`)).toBe(true);
      expect(existsSync(`${f}.2`)).toBe(true);
      expect(existsSync(`${f}.3`)).toBe(false);
      expect(readFileSync(f, 'utf8')).toContain('"i":9');
      expect(readFileSync(`${f}.1`, 'utf8')).not.toContain('"i":9');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
