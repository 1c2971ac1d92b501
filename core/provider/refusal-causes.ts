// What a provider refusal most likely means, in words a cashier (and, for keys, an admin) can act
// on. Providers do not document their codes, so the cause is read from the code and the message;
// an unsigned refusal is only a likely cause, never proof that nothing was created.
import { describeOffset, SKEW_MAX_CORRECTION_MS, SKEW_SHOW_MS, type SkewState } from './provider-clock';

export type RefusalCause = 'clock' | 'credentials' | 'signature';

// Narrow on purpose: "order expired" is a business answer, not a clock problem.
const CLOCK = /timestamp|request\s*(time|expired)|time\s*(stamp|expired|out\s*of\s*range|skew)|clock/i;
const SIGNATURE = /\bsign(ature)?\b|verif/i;
const CREDENTIALS =
  /client\s*auth|auth\s*key|authori[sz]|authenticat|invalid\s*merchant|merchant\s*(id\s*)?(is\s*)?(invalid|not\s*(exist|found))|public\s*key|secret\s*key|forbidden|access\s*denied|permission\s*denied/i;

/** The likely cause of a refusal, or null when it is not about our clock or credentials. */
export function refusalCause(providerCode: string, providerMessage: string): RefusalCause | null {
  if (CLOCK.test(providerMessage) || providerCode === '10002') return 'clock';
  if (SIGNATURE.test(providerMessage) || providerCode === '10004') return 'signature';
  if (CREDENTIALS.test(providerMessage) || providerCode === '10001') return 'credentials';
  return null;
}

interface RefusalText {
  /** For the cashier: what happened and what to do. */
  cashier: string;
  /** For the administrator: which setting to check. */
  admin: string;
}

function said(providerCode: string, providerMessage: string): string {
  const m = providerMessage.trim();
  return m ? `code ${providerCode} "${m.slice(0, 120)}"` : `code ${providerCode}`;
}

/** Cashier and admin lines for a refusal with a known cause, using the measured clock offset. */
export function refusalText(
  cause: RefusalCause,
  providerCode: string,
  providerMessage: string,
  skew: SkewState | null,
): RefusalText {
  const what = said(providerCode, providerMessage);
  if (cause === 'clock') {
    const off = skew?.offsetMs ?? null;
    if (off !== null && Math.abs(off) > SKEW_SHOW_MS) {
      const fix = skew?.correcting
        ? "CounterPay now signs its requests with the provider's time and checks again by itself; fix the date and time when you can."
        : Math.abs(off) > SKEW_MAX_CORRECTION_MS
          ? 'This is too far off to correct: fix the date and time, then press Check now.'
          : 'Fix the date and time, then press Check now.';
      return {
        cashier: `The provider says the request is too old (${what}): this computer's clock is ${describeOffset(off)}. ${fix}`,
        admin: 'Set this computer to get its time automatically from the internet (NTP), with the right time zone.',
      };
    }
    return {
      cashier: `The provider says the request is too old (${what}). Check that this computer's date, time and time zone are right, then press Check now.`,
      admin: 'Set this computer to get its time automatically from the internet (NTP), with the right time zone.',
    };
  }
  if (cause === 'signature') {
    return {
      cashier: `The provider refused our request's signature (${what}). Sales cannot go through until the administrator fixes the keys in Settings.`,
      admin:
        "The merchant private key in Settings does not match the public key registered with the provider, or the provider public key is wrong: paste both again from the provider's dashboard, save, and press Check now.",
    };
  }
  return {
    cashier: `The provider refused our credentials (${what}). Sales cannot go through until the administrator fixes the keys in Settings.`,
    admin:
      "Check the clientAuthKey and the merchant ids in Settings against the provider's dashboard (Developer Tools), save, and press Check now.",
  };
}
