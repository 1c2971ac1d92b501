// Secrets the Hub hands out: enrollment codes and counter credentials. Only their SHA-256 is stored.
import { createHash, randomBytes, randomInt } from 'node:crypto';

const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'; // no 0/O, 1/I: read aloud at a counter

export const sha256 = (s: string): string => createHash('sha256').update(s, 'utf8').digest('hex');

export function newEnrollCode(): string {
  const part = () => Array.from({ length: 4 }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join('');
  return `${part()}-${part()}-${part()}`;
}

/** 256 random bits, base64url (43 characters). */
export const newCredential = (): string => randomBytes(32).toString('base64url');

export const newCounterId = (): string => `ctr_${randomBytes(6).toString('hex')}`;
