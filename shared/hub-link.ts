// The counter's link to a CounterPay Hub as the screens see it: the enrollment form's rules (the
// Hub's address and a one-time code), what the status bar shows, and the Settings → Hub view.
// The credential never appears here: views say "enrolled as … since …".
import { z } from 'zod';
import { EnrollRequestSchema } from './hub-contract';

const HUB_LINK_STATES = ['not-set-up', 'connecting', 'connected', 'not-relaying', 'offline', 'revoked'] as const;
export const HubLinkState = z.enum(HUB_LINK_STATES);
export type HubLinkState = z.infer<typeof HubLinkState>;

/** The status bar's part: connected means the relay stream is healthy and sync is not failing. */
export const HubStatusSchema = z.object({
  state: HubLinkState,
  /** Journal events the Hub does not hold yet. */
  toSync: z.number().int().nonnegative(),
  /** One sentence: what is going on and what to do. */
  detail: z.string(),
});
export type HubStatus = z.infer<typeof HubStatusSchema>;

export const HUB_NOT_SET_UP: HubStatus = {
  state: 'not-set-up',
  toSync: 0,
  detail:
    'This counter is not joined to a Hub. Sales work as usual. To join one: Settings → Hub, with the address and a code from the manager.',
};

/**
 * A Hub without the merchant keys cannot verify the provider's webhooks, so it passes none on: said
 * by the counter's status pill (state `not-relaying`) and the Hub's Counters and Needs attention.
 */
export const HUB_NOT_RELAYING_TEXT = 'The Hub is not passing on payment notifications: give it the merchant file.';

/** What a counter removed by its manager is told. */
export const HUB_REVOKED_TEXT =
  'This counter was removed from the Hub by its manager. Sales go on; ask the manager for a new code.';

// ---- The address ---------------------------------------------------------------------------------

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/**
 * An address that stays inside the building (or this PC): loopback, private IPv4 ranges, link-local,
 * IPv6 loopback / unique-local / link-local, `localhost`, `*.local`, `*.lan`, `*.home.arpa` and
 * one-word machine names. Plain http:// is allowed only to these (a lab, a cinema's own network).
 */
function isLabHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (
    h === 'localhost' ||
    h.endsWith('.localhost') ||
    h.endsWith('.local') ||
    h.endsWith('.lan') ||
    h.endsWith('.home.arpa')
  )
    return true;
  const m = IPV4.exec(h);
  if (m) {
    const [a, b] = [Number(m[1]), Number(m[2])];
    return (
      a === 127 || a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254)
    );
  }
  if (h.includes(':')) return h === '::1' || /^f[cd][0-9a-f]{0,2}:/.test(h) || /^fe[89ab][0-9a-f]?:/.test(h);
  return !h.includes('.'); // a one-word name is only known on the local network
}

/** The problem with a typed Hub address, or null when it can be used. */
export function hubUrlProblem(raw: string): string | null {
  const v = raw.trim();
  if (v === '') return "Enter the Hub's address (the manager has it; the Hub prints it when it starts)";
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    return 'Enter the full address, starting with https:// (for example https://hub.mycinema.ng)';
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return 'The address starts with https://';
  if (u.username || u.password) return 'Leave the user name and password out of the address';
  if (u.search || u.hash) return 'Leave anything after ? or # out of the address';
  if (u.protocol === 'http:' && !isLabHost(u.hostname))
    return "Use https:// for a Hub outside this building: plain http:// would send the counter's credential unprotected";
  return null;
}

/** A warning for an address that can be used but is only fit for a lab or the cinema's own network. */
export function hubUrlWarning(raw: string): string | null {
  try {
    const u = new URL(raw.trim());
    if (u.protocol === 'http:' && isLabHost(u.hostname)) {
      return "Plain http:// is for a lab or the cinema's own network only: anyone on this network can read what the counter sends. Use https:// when the Hub can give it.";
    }
  } catch {
    // hubUrlProblem says what is wrong
  }
  return null;
}

/** The address as kept: no spaces, no trailing slash. */
function normalHubUrl(raw: string): string {
  const u = new URL(raw.trim());
  return `${u.protocol}//${u.host}${u.pathname}`.replace(/\/+$/, '');
}

// ---- The code ------------------------------------------------------------------------------------

/** As typed (lower case, spaces, with or without dashes) → ABCD-EFGH-JKLM when it has 12 letters and digits. */
function normalEnrollCode(raw: string): string {
  const bare = raw.toUpperCase().replace(/[\s-]+/g, '');
  return /^[A-Z0-9]{12}$/.test(bare)
    ? `${bare.slice(0, 4)}-${bare.slice(4, 8)}-${bare.slice(8)}`
    : raw.trim().toUpperCase();
}

const ENROLL_CODE_HINT = 'An enrollment code has 12 letters and digits, like ABCD-EFGH-JKLM';

/** The Hub's own rule for a code (shared/hub-contract.ts), after tidying what the cashier typed. */
export function enrollCodeProblem(raw: string): string | null {
  if (raw.trim() === '') return 'Enter the code the manager gave you';
  return EnrollRequestSchema.shape.code.safeParse(normalEnrollCode(raw)).success ? null : ENROLL_CODE_HINT;
}

// ---- The form and the view ----------------------------------------------------------------------

export const HUB_ENROLL_INVALID = 'This counter was not joined: fix the fields marked below.';

export const HubEnrollSchema = z
  .object({
    hubUrl: z
      .string()
      .max(300, 'At most 300 characters')
      .superRefine((v, c) => {
        const p = hubUrlProblem(v);
        if (p) c.addIssue({ code: 'custom', message: p });
      })
      .transform(normalHubUrl),
    code: z
      .string()
      .max(40, ENROLL_CODE_HINT)
      .superRefine((v, c) => {
        const p = enrollCodeProblem(v);
        if (p) c.addIssue({ code: 'custom', message: p });
      })
      .transform(normalEnrollCode),
  })
  .strict();

export const HubLinkViewSchema = HubStatusSchema.extend({
  hubUrl: z.string().nullable(),
  counterId: z.string().nullable(),
  /** As the Hub knows this counter (the profile's counter name at enrollment). */
  counterName: z.string().nullable(),
  /** The POS branch (merchantId) this counter was enrolled for. */
  branch: z.string().nullable(),
  enrolledAt: z.number().nullable(),
  revokedAt: z.number().nullable(),
  /** When the Hub last confirmed it holds this counter's journal up to date. */
  lastSyncAt: z.number().nullable(),
  /** The last time this counter asked the Hub who it is (start, Check now, every few minutes). */
  lastCheck: z.object({ at: z.number(), ok: z.boolean(), message: z.string() }).nullable(),
  /** `no-keys`: the stream is up but its Hub cannot verify webhooks (no merchant file), so it passes none on. */
  relay: z.enum(['off', 'connected', 'no-keys', 'not-connected']),
  sync: z.enum(['off', 'syncing', 'synced', 'offline']),
  /** Things an admin should know: a plain-http address, a profile whose merchant is not the enrolled branch. */
  warnings: z.array(z.string()),
});
export type HubLinkView = z.infer<typeof HubLinkViewSchema>;
