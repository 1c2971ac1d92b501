// What a profile may hold safely. Production talks to real money, so it refuses settings that would
// let someone on the network read or forge the provider's answers: plain-http addresses and an
// unchecked response signature. Sandbox may keep them (test servers often lack TLS) but says so.
// A webhook receiver listening beyond this computer is allowed (the provider may call it directly)
// and always warned, so it is a choice and not an accident.
import type { ProfileName, ProfileSettings } from './settings';

interface ProfileWarning {
  /** The settings field, as in a save's field errors without the "settings." prefix. */
  field: string;
  message: string;
}

/** 127.0.0.0/8, ::1 and localhost: reachable only from this computer. */
export function isLoopbackHost(host: string): boolean {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1');
  if (h === 'localhost' || h === '::1') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

const isPlainHttp = (url: string) => /^http:\/\//i.test(url.trim());

const ADDRESS_FIELDS = [
  ['posBaseUrl', 'The POS payment API address', (s: ProfileSettings) => s.posBaseUrl],
  ['billsBaseUrl', 'The bills API address', (s: ProfileSettings) => s.billsBaseUrl],
  ['webhook.callbackBaseUrl', 'The public webhook address', (s: ProfileSettings) => s.webhook.callbackBaseUrl],
] as const;

/** Field errors (keys without the "settings." prefix) that stop a Production save. */
export function productionProblems(s: ProfileSettings): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [field, , get] of ADDRESS_FIELDS) {
    if (isPlainHttp(get(s)))
      out[field] =
        'Production needs an https:// address: http:// is not encrypted, so payments could be read or changed on the way';
  }
  if (s.conventions.posResponseVerify !== 'verify') {
    out['conventions.posResponseVerify'] =
      `Production must verify the provider's response signatures ("verify"); "${s.conventions.posResponseVerify}" would accept forged answers`;
  }
  return out;
}

/** What Settings shows above the form: risky choices a profile is allowed to keep. */
export function profileWarnings(name: ProfileName, s: ProfileSettings): ProfileWarning[] {
  const out: ProfileWarning[] = [];
  // Demo runs its own sandbox on this computer: http on loopback is all it needs.
  if (name === 'sandbox') {
    for (const [field, label, get] of ADDRESS_FIELDS) {
      if (isPlainHttp(get(s)))
        out.push({
          field,
          message: `${label} uses http:// (not encrypted): ${get(s)}. Fine for testing; Production refuses it.`,
        });
    }
    if (s.conventions.posResponseVerify !== 'verify') {
      out.push({
        field: 'conventions.posResponseVerify',
        message: `Response signatures are "${s.conventions.posResponseVerify}": forged answers would not be caught. Production refuses this.`,
      });
    }
  }
  if (s.webhook.enabled && !isLoopbackHost(s.webhook.host)) {
    out.push({
      field: 'webhook.host',
      message: `The webhook receiver listens on ${s.webhook.host}, so other computers on the network can reach it. Use 127.0.0.1 behind an HTTPS proxy unless the provider must call this computer directly.`,
    });
  }
  return out;
}
