// An integration's key: `cpk_<id>_<secret>`, made once at pairing, shown once, kept in the vault
// (scope `integration.<id>`); the table holds only its SHA-256 (to check a caller) and a fingerprint.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const KEY_RE = /^cpk_([a-f0-9]{12})_([A-Za-z0-9_-]{43})$/;

export const vaultScope = (id: string) => `integration.${id}`;

export function newIntegrationKey(): { id: string; key: string } {
  const id = randomBytes(6).toString('hex');
  return { id, key: `cpk_${id}_${randomBytes(32).toString('base64url')}` };
}

export function keyHash(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** The integration id a presented key claims, or null when it is not a key at all. */
export function keyId(key: string): string | null {
  return KEY_RE.exec(key)?.[1] ?? null;
}

export function keyMatches(key: string, hash: string): boolean {
  const a = Buffer.from(keyHash(key), 'hex');
  const b = Buffer.from(hash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** `Authorization: Bearer <key>` → the key, or null. */
export function bearer(header: string | undefined): string | null {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return m?.[1] ?? null;
}
