// What the screens say about the counter's Hub link: the status bar's pill and its tooltip, the
// "Enrolled as …" line of Settings → Hub, and the enrollment form's checks as the admin types
// (the same rules main applies: shared/hub-link.ts).
import type { HubLinkView, HubStatus } from '../../../shared/hub-link';
import { enrollCodeProblem, hubUrlProblem, hubUrlWarning } from '../../../shared/hub-link';
import { formatLagosDateTime, formatLagosTime } from '../format';

export function hubPillText(s: HubStatus): string {
  switch (s.state) {
    case 'not-set-up':
      return 'Hub: not set up';
    case 'connecting':
      return 'Hub: connecting…';
    case 'connected':
      return s.toSync > 0 ? `Hub: connected (${s.toSync} to sync)` : 'Hub: connected';
    case 'not-relaying':
      return 'Hub: not passing on payments';
    case 'offline':
      return `Hub: offline (${s.toSync} to sync)`;
    case 'revoked':
      return 'Hub: removed';
  }
}

export const HUB_PILL_TONE: Record<HubStatus['state'], 'good' | 'warn' | 'bad' | 'info' | 'neutral'> = {
  'not-set-up': 'neutral',
  connecting: 'info',
  connected: 'good',
  'not-relaying': 'warn',
  offline: 'warn',
  revoked: 'bad',
};

/** The pill's tooltip: what is going on, then what to do. */
export function hubPillHint(s: HubStatus): string {
  switch (s.state) {
    case 'not-set-up':
      return s.detail;
    case 'connecting':
      return `${s.detail} Sales work as usual meanwhile.`;
    case 'connected':
    case 'not-relaying':
      return s.detail;
    case 'offline':
      return `${s.detail} Settings → Hub → Check now tries again at once.`;
    case 'revoked':
      return `${s.detail} Then: Settings → Hub → Leave this Hub, and join again with the new code.`;
  }
}

const RELAY_TEXT: Record<HubLinkView['relay'], string> = {
  off: 'relay off',
  connected: 'relay connected',
  'no-keys': 'relay connected, but the Hub passes on no payments',
  'not-connected': 'relay not connected',
};

/** "Enrolled as Counter 2 (branch 256…) on https://hub… since …" (no credential: main never sends it). */
export function enrolledLine(v: HubLinkView): string {
  if (!v.hubUrl) return 'This counter is not joined to a Hub.';
  const since = v.enrolledAt ? ` since ${formatLagosDateTime(v.enrolledAt)}` : '';
  return `Enrolled as ${v.counterName ?? v.counterId ?? '?'} (branch ${v.branch ?? '?'}) on ${v.hubUrl}${since}`;
}

/** "last synced 18:02 — 0 to sync — relay connected" */
export function syncLine(v: HubLinkView): string {
  const synced = v.lastSyncAt ? `last synced ${formatLagosTime(v.lastSyncAt)}` : 'not synced yet';
  return [synced, `${v.toSync} to sync`, RELAY_TEXT[v.relay]].join(' — ');
}

export interface HubDraft {
  hubUrl: string;
  code: string;
}

/** Field messages for what is typed (shown once the admin tries to join, or leaves a field). */
export function hubDraftErrors(d: HubDraft): Partial<Record<keyof HubDraft, string>> {
  const out: Partial<Record<keyof HubDraft, string>> = {};
  const url = hubUrlProblem(d.hubUrl);
  if (url) out.hubUrl = url;
  const code = enrollCodeProblem(d.code);
  if (code) out.code = code;
  return out;
}

/** A warning under the address while typing a plain-http lab address. */
export const hubDraftWarning = (d: HubDraft): string | null =>
  hubUrlProblem(d.hubUrl) ? null : hubUrlWarning(d.hubUrl);
