// What the status bar's Hub pill and Settings → Hub say, and the join form's rules as typed.
import { describe, expect, it } from 'vitest';
import { HUB_NOT_SET_UP } from '../../../shared/hub-link';
import {
  enrolledLine,
  hubDraftErrors,
  hubDraftWarning,
  hubPillHint,
  hubPillText,
  syncLine,
} from '../../../renderer/src/stores/hub-link-text';
import { joinedHubView } from './fake-main';

describe('the Hub pill', () => {
  it('says connected, offline with what waits, not set up, or removed', () => {
    expect(hubPillText({ state: 'connected', toSync: 0, detail: '' })).toBe('Hub: connected');
    expect(hubPillText({ state: 'connected', toSync: 2, detail: '' })).toBe('Hub: connected (2 to sync)');
    expect(hubPillText({ state: 'offline', toSync: 12, detail: '' })).toBe('Hub: offline (12 to sync)');
    expect(hubPillText({ state: 'offline', toSync: 0, detail: '' })).toBe('Hub: offline (0 to sync)');
    expect(hubPillText(HUB_NOT_SET_UP)).toBe('Hub: not set up');
    expect(hubPillText({ state: 'revoked', toSync: 0, detail: '' })).toBe('Hub: removed');
    expect(hubPillText({ state: 'connecting', toSync: 0, detail: '' })).toBe('Hub: connecting…');
  });

  it('its tooltip says what to do', () => {
    expect(hubPillHint(HUB_NOT_SET_UP)).toContain('Settings → Hub');
    expect(hubPillHint({ state: 'offline', toSync: 3, detail: 'The Hub cannot be reached.' })).toContain('Check now');
    expect(hubPillHint({ state: 'revoked', toSync: 0, detail: 'Removed.' })).toContain('join again with the new code');
  });
});

describe('Settings → Hub lines', () => {
  it('says who the counter is on which Hub, and how its sync and relay are', () => {
    const v = joinedHubView();
    expect(enrolledLine(v)).toMatch(/^Enrolled as Counter 2 \(branch 256612\) on https:\/\/hub\.mycinema\.ng since /);
    // 1_763_917_320_000 is 18:02 in Lagos.
    expect(syncLine(v)).toBe('last synced 18:02 — 0 to sync — relay connected');
    expect(syncLine(joinedHubView({ lastSyncAt: null, toSync: 4, relay: 'not-connected' }))).toBe(
      'not synced yet — 4 to sync — relay not connected',
    );
    // The stream is up, but a Hub without the merchant file passes nothing on: not "not connected", not plain "connected".
    expect(syncLine(joinedHubView({ relay: 'no-keys' }))).toBe(
      'last synced 18:02 — 0 to sync — relay connected, but the Hub passes on no payments',
    );
  });
});

describe('the join form', () => {
  it('wants https:// unless the Hub is on this PC or the cinema network, and then warns', () => {
    expect(hubDraftErrors({ hubUrl: 'https://hub.mycinema.ng', code: 'ABCD-EFGH-JKLM' })).toEqual({});
    expect(hubDraftErrors({ hubUrl: 'http://hub.mycinema.ng', code: 'ABCD-EFGH-JKLM' }).hubUrl).toContain('https://');
    for (const lab of [
      'http://127.0.0.1:8443',
      'http://192.168.1.20:8443',
      'http://10.0.0.5',
      'http://172.20.1.1',
      'http://hub-pc:8443',
      'http://hub.local',
      'http://[::1]:8443',
      'http://localhost:8443',
    ]) {
      expect(hubDraftErrors({ hubUrl: lab, code: 'ABCD-EFGH-JKLM' }), lab).toEqual({});
      expect(hubDraftWarning({ hubUrl: lab, code: '' }), lab).toContain('lab');
    }
    expect(hubDraftErrors({ hubUrl: 'http://172.32.0.1', code: 'ABCD-EFGH-JKLM' }).hubUrl).toBeDefined();
    expect(hubDraftWarning({ hubUrl: 'https://hub.mycinema.ng', code: '' })).toBeNull();
    expect(hubDraftErrors({ hubUrl: 'hub.mycinema.ng', code: 'ABCD-EFGH-JKLM' }).hubUrl).toContain('full address');
    expect(hubDraftErrors({ hubUrl: 'https://hub.mycinema.ng/?x=1', code: 'ABCD-EFGH-JKLM' }).hubUrl).toBeDefined();
    expect(hubDraftErrors({ hubUrl: 'ftp://hub.mycinema.ng', code: 'ABCD-EFGH-JKLM' }).hubUrl).toBeDefined();
    expect(hubDraftErrors({ hubUrl: '', code: 'ABCD-EFGH-JKLM' }).hubUrl).toContain('manager');
  });

  it('takes the code as a tired cashier types it, as the Hub checks it', () => {
    for (const ok of ['ABCD-EFGH-JKLM', 'abcd-efgh-jklm', 'abcdefghjklm', ' ABCD EFGH JKLM '])
      expect(hubDraftErrors({ hubUrl: 'https://h.ng', code: ok }), ok).toEqual({});
    for (const bad of ['ABCD-EFGH', 'ABCD-EFGH-JKL!', 'ABCD-EFGH-JKLMN'])
      expect(hubDraftErrors({ hubUrl: 'https://h.ng', code: bad }).code, bad).toContain('ABCD-EFGH-JKLM');
    expect(hubDraftErrors({ hubUrl: 'https://h.ng', code: '' }).code).toContain('manager');
  });
});
