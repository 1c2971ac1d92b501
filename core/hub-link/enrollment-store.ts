// What the counter keeps of its enrollment: the Hub's address, the counter's id, branch and name in
// settings (key `hub`), the credential in the vault (scope `hub`): never logged, never in a view or
// an event. The connection the links use is read from both once per enrollment.
import { formatLagosDateTime } from '../../shared/time';
import type { KeyValueStore, SecretVault } from '../settings';
import type { HubConnection } from './link-types';

export const HUB_SETTINGS_KEY = 'hub';
export const HUB_VAULT_SCOPE = 'hub';
const CREDENTIAL = 'credential';

/** What settings keep of an enrollment (no secret). */
export interface HubSaved {
  url: string;
  counterId: string;
  branch: string;
  counterName: string;
  enrolledAt: number;
  revokedAt: number | null;
  revokedWhy: string | null;
}

function readSaved(raw: unknown): HubSaved | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const r = raw as Record<string, unknown>;
  const str = (k: string) => (typeof r[k] === 'string' && r[k] !== '' ? (r[k] as string) : null);
  const url = str('url');
  const counterId = str('counterId');
  const branch = str('branch');
  if (!url || !counterId || !branch) return null;
  return {
    url,
    counterId,
    branch,
    counterName: str('counterName') ?? '',
    enrolledAt: typeof r.enrolledAt === 'number' ? r.enrolledAt : 0,
    revokedAt: typeof r.revokedAt === 'number' ? r.revokedAt : null,
    revokedWhy: str('revokedWhy'),
  };
}

export class EnrollmentStore {
  /** The connection read from settings and the vault; undefined until read again after a change. */
  private conn: HubConnection | null | undefined;

  constructor(private readonly kv: { store: KeyValueStore; vault: SecretVault }) {}

  saved(): HubSaved | null {
    return readSaved(this.kv.store.get(HUB_SETTINGS_KEY));
  }

  /** The way to the Hub while enrolled and not revoked; null otherwise. */
  connection(): HubConnection | null {
    if (this.conn !== undefined) return this.conn;
    const s = this.saved();
    const credential = s && s.revokedAt === null ? this.kv.vault.get(HUB_VAULT_SCOPE, CREDENTIAL) : null;
    this.conn = s && credential ? { url: s.url, counterId: s.counterId, credential, branch: s.branch } : null;
    return this.conn;
  }

  /** The credential first, then the settings that point to it: a failed write leaves no half enrollment. */
  enrolled(s: HubSaved, credential: string): void {
    this.kv.vault.setMany(HUB_VAULT_SCOPE, { [CREDENTIAL]: credential });
    try {
      this.kv.store.set(HUB_SETTINGS_KEY, s);
    } catch (e) {
      this.kv.vault.setMany(HUB_VAULT_SCOPE, { [CREDENTIAL]: null });
      throw e;
    } finally {
      this.conn = undefined;
    }
  }

  /** The Hub will not take the credential again: it is forgotten, the enrollment kept as revoked. */
  revoked(s: HubSaved, at: number, why: string): void {
    this.kv.store.set(HUB_SETTINGS_KEY, { ...s, revokedAt: at, revokedWhy: why });
    this.kv.vault.setMany(HUB_VAULT_SCOPE, { [CREDENTIAL]: null });
    this.conn = undefined;
  }

  /** Left the Hub: the credential and the settings go. */
  forget(): void {
    this.kv.vault.setMany(HUB_VAULT_SCOPE, { [CREDENTIAL]: null });
    this.kv.store.delete(HUB_SETTINGS_KEY);
    this.conn = undefined;
  }

  /** "Enrolled as Counter 2 since 18:02": for logs and diagnostics, no secret. */
  describe(): string {
    const s = this.saved();
    return s
      ? `enrolled as ${s.counterName} (${s.counterId}, branch ${s.branch}) on ${s.url} since ${formatLagosDateTime(s.enrolledAt)}${s.revokedAt ? ', removed by the Hub' : ''}`
      : 'not joined to a Hub';
  }
}
