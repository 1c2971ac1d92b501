// The counter's Hub state from what its parts report: connected only with a healthy relay stream and
// sync not failing; offline once the Hub failed to answer or sync fails; removed says so plainly.
// And the enrollment arguments main accepts (the same rules the form uses).
import { describe, expect, it } from 'vitest';
import { hubLinkStatus } from '../../../core/hub-link';
import { HubEnrollSchema } from '../../../shared/hub-link';

const saved = { url: 'https://hub.mycinema.ng', revokedAt: null, revokedWhy: null };
const base = { saved, relayHealthy: false, sync: 'off' as const, toSync: 0, lastCheck: null };

describe('hub link state', () => {
  it('not joined → not set up, with what to do', () => {
    expect(hubLinkStatus({ ...base, saved: null })).toMatchObject({ state: 'not-set-up', toSync: 0 });
  });
  it('relay healthy and sync fine → connected; sync failing → offline with what waits', () => {
    expect(hubLinkStatus({ ...base, relayHealthy: true, sync: 'synced' }).state).toBe('connected');
    expect(hubLinkStatus({ ...base, relayHealthy: true, sync: 'syncing', toSync: 4 }).state).toBe('connected');
    const off = hubLinkStatus({ ...base, relayHealthy: true, sync: 'offline', toSync: 4 });
    expect(off).toMatchObject({ state: 'offline', toSync: 4 });
    expect(off.detail).toContain('4 events wait to be sent');
  });
  it('the Hub says it cannot verify webhooks → not-relaying (amber, never connected), saying to give it the merchant file', () => {
    const s = hubLinkStatus({ ...base, relayHealthy: false, hubCannotVerify: true, sync: 'synced' });
    expect(s.state).toBe('not-relaying');
    expect(s.detail).toContain('The Hub is not passing on payment notifications: give it the merchant file.');
    // Sync failing still says offline: that is the bigger problem.
    expect(hubLinkStatus({ ...base, hubCannotVerify: true, sync: 'offline' }).state).toBe('offline');
  });
  it('relay down: connecting while the Hub answers, offline once it does not', () => {
    expect(hubLinkStatus({ ...base, lastCheck: { at: 1, ok: true, message: '' } }).state).toBe('connecting');
    const down = hubLinkStatus({ ...base, toSync: 1, lastCheck: { at: 1, ok: false, message: 'connection refused' } });
    expect(down.state).toBe('offline');
    expect(down.detail).toContain('connection refused');
    expect(down.detail).toContain('1 event waits to be sent and goes when the Hub is back');
    // Nothing answering is said once, not twice.
    expect(hubLinkStatus({ ...base, lastCheck: { at: 1, ok: false, message: 'no answer' } }).detail).toMatch(
      /^The Hub at https:\/\/hub\.mycinema\.ng cannot be reached\. Sales go on; nothing waits to be sent\./,
    );
  });
  it('removed by the manager → revoked, whatever else is known', () => {
    const r = hubLinkStatus({
      ...base,
      saved: { ...saved, revokedAt: 5, revokedWhy: null },
      relayHealthy: true,
      sync: 'synced',
    });
    expect(r).toEqual({
      state: 'revoked',
      toSync: 0,
      detail: 'This counter was removed from the Hub by its manager. Sales go on; ask the manager for a new code.',
    });
  });
});

describe('hub.enroll arguments', () => {
  it('tidies the address and the code', () => {
    expect(HubEnrollSchema.parse({ hubUrl: ' https://hub.mycinema.ng/counterpay/ ', code: 'abcd efgh jklm' })).toEqual({
      hubUrl: 'https://hub.mycinema.ng/counterpay',
      code: 'ABCD-EFGH-JKLM',
    });
  });
  it('refuses a public plain-http address and a malformed code, each on its field', () => {
    const r = HubEnrollSchema.safeParse({ hubUrl: 'http://203.0.113.9:8443', code: 'ABCD-EFGH-JKLO!' });
    expect(r.success).toBe(false);
    expect(r.error!.issues.map((i) => i.path.join('.')).sort()).toEqual(['code', 'hubUrl']);
  });
  it("a journal older than the Hub's copy (restored from a backup) says so and what to do, even with the relay up", () => {
    const r = hubLinkStatus({
      ...base,
      relayHealthy: true,
      sync: 'offline',
      toSync: 0,
      syncProblem:
        'the Hub holds 40 events of this counter but this journal has 12: was the journal restored from an older backup? Syncing stopped; tell the Hub administrator.',
    });
    expect(r.state).toBe('offline');
    expect(r.detail).toMatch(
      /no longer matches the Hub's copy.*holds 40 events.*12.*Sales go on.*join again with a new code/,
    );
  });
});
