// A short, non-reversible label for a secret, shown in Settings instead of the secret itself.
import { createHash } from 'node:crypto';

export function fingerprint(secret: string): string {
  const hex = createHash('sha256').update(secret.trim(), 'utf8').digest('hex');
  return `${hex.slice(0, 4)}…${hex.slice(-4)}`;
}
