// The one ingest with a relayed body: the same checks as a direct webhook with the counter's own
// keys, except that a relayed POS notification may be up to RELAY_MAX_AGE_MS old (never more than
// 5 minutes ahead); another counter's order is ignored without a record; a direct and a relayed
// copy of one statement are one event.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { memoryLogger } from '../../../shared/logger';
import {
  createWebhookIngest,
  listWebhookEvents,
  RELAY_MAX_AGE_MS,
  relayedIngestInput,
  type PosNotification,
} from '../../../core/webhook';
import { openTempDb } from '../../helpers/orders-db';
import { keys, testConfig } from '../provider/fixtures';
import { posWebhookBody } from './fixtures';

const NOW = 1763726500000;
const DAY = 24 * 60 * 60 * 1000;
let temp: ReturnType<typeof openTempDb>;
let handled: PosNotification[];
let ours: boolean;
beforeEach(() => {
  temp = openTempDb();
  handled = [];
  ours = true;
});
afterEach(() => temp.cleanup());

const ingest = () =>
  createWebhookIngest({
    db: temp.db,
    logger: memoryLogger(),
    clock: { now: () => NOW },
    getConfig: testConfig,
    onPosNotification: (n) => void handled.push(n),
    onBillsCallback: () => {},
    ownsPosOrder: () => ours,
  });
const body = (timestamp: number, o: { signWith?: string } = {}) => JSON.stringify(posWebhookBody({ timestamp, ...o }));
const relayed = (b: string) =>
  relayedIngestInput(
    {
      eventId: '5',
      notificationId: '5',
      kind: 'pos',
      receivedAt: NOW,
      headers: { 'x-opay-tranid': 'T' },
      body: b,
      replay: false,
    },
    'X-Opay-Tranid',
  );

describe('relayed notifications', () => {
  it('a day old: refused directly, accepted relayed; older than the relay window or ahead of the clock: refused', () => {
    const i = ingest();
    expect(i({ kind: 'pos', body: body(NOW - DAY), via: 'direct' })).toMatchObject({
      outcome: 'refused',
      code: '40102',
    });
    expect(i(relayed(body(NOW - DAY))).outcome).toBe('recorded');
    expect(handled).toHaveLength(1);
    expect(i(relayed(body(NOW - RELAY_MAX_AGE_MS - 1))).outcome).toBe('refused');
    expect(i(relayed(body(NOW + 6 * 60_000))).outcome).toBe('refused');
  });

  it('the relay changes nothing else: a body not signed by the provider is refused', () => {
    const r = ingest()(relayed(body(NOW, { signWith: keys.merchantPrivateKey })));
    expect(r).toMatchObject({ outcome: 'refused', code: '40103' });
    expect(listWebhookEvents(temp.db)).toEqual([]);
  });

  it("a direct and a relayed copy of the same statement are one event; another counter's order is not recorded", () => {
    const i = ingest();
    expect(i({ kind: 'pos', body: body(NOW - 1000), via: 'direct' }).outcome).toBe('recorded');
    expect(i(relayed(body(NOW - 500))).outcome).toBe('repeat');
    expect(handled).toHaveLength(1);
    ours = false;
    temp.db.prepare('DELETE FROM webhook_events').run();
    expect(i(relayed(body(NOW))).outcome).toBe('ignored');
    expect(listWebhookEvents(temp.db)).toEqual([]);
  });
});
