// The sandbox's clock can be skewed through the control API: requests more than 5 minutes off
// its clock get the gateway's unsigned "timestamp expired", and every answer is dated by it.
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../sandbox';
import { orderParams, posCall, testConfig } from '../../helpers/sandbox-client-helpers';

let sb: Sandbox | null = null;
afterEach(async () => {
  await sb?.close();
  sb = null;
});

async function control(method: string, body?: unknown) {
  const r = await fetch(`${sb!.url}/_sandbox/clock`, {
    method,
    ...(body ? { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } } : {}),
  });
  return {
    status: r.status,
    json: (await r.json()) as { code: string; message: string; data: { offsetMs: number; sendDate: boolean } | null },
  };
}

describe('sandbox clock', () => {
  it('a provider clock 6 minutes ahead refuses a request stamped with the host time, and dates its answers by its own clock', async () => {
    sb = await startSandbox(testConfig());
    expect((await control('POST', { offsetMs: 6 * 60_000 })).json.data).toEqual({ offsetMs: 360_000, sendDate: true });
    const refused = await posCall(sb, 'createOrder', orderParams());
    expect(refused.status).toBe(200);
    expect(refused.json).toMatchObject({ code: '10002', message: 'timestamp expired', data: null });
    expect(refused.json.sign).toBeUndefined();
    expect(sb.listPosOrders()).toHaveLength(0);

    const r = await fetch(`${sb.url}/_sandbox/health`);
    const dated = Date.parse(r.headers.get('date') ?? '');
    expect(dated - Date.now()).toBeGreaterThan(5 * 60_000);

    // A request stamped with the provider's time goes through.
    const ok = await posCall(sb, 'createOrder', orderParams(), { timestamp: String(Date.now() + 6 * 60_000) });
    expect(ok.json.code).toBe('00000');
  });

  it('the Date header can be switched off; bad values are refused with what to send', async () => {
    sb = await startSandbox(testConfig());
    await control('POST', { sendDate: false });
    const r = await fetch(`${sb.url}/_sandbox/health`);
    expect(r.headers.get('date')).toBeNull();
    expect((await control('GET')).json.data).toEqual({ offsetMs: 0, sendDate: false });
    const bad = await control('POST', { offsetMs: 'six minutes' });
    expect(bad.status).toBe(400);
    expect(bad.json.message).toMatch(/offsetMs must be a whole number/);
    sb.reset();
    expect(sb.clockState()).toEqual({ offsetMs: 0, sendDate: true });
  });
});
