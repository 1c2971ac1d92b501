// RSA of the POS API: PKCS#1 v1.5 encryption in (key bytes - 11) chunks, SHA256withRSA signatures.
// Decryption uses raw RSA and removes the v1.5 padding itself, because Node refuses
// RSA_PKCS1_PADDING for privateDecrypt (CVE-2023-46809). Callers decrypt only after a signature
// verified, and must report a padding failure exactly like a bad signature.
import {
  constants,
  createPrivateKey,
  createPublicKey,
  createSign,
  createVerify,
  privateDecrypt,
  publicEncrypt,
  type KeyObject,
} from 'node:crypto';

export type KeyInput = string | KeyObject;
export type SignHash = 'SHA256' | 'SHA1';

export class RsaError extends Error {
  readonly code = 'RSA_FAILED';
  constructor(message: string) {
    super(message);
    this.name = 'RsaError';
  }
}

// Parsed keys by their text: parsing a PEM costs far more than a lookup, and the same keys sign every call.
const publicCache = new Map<string, KeyObject>();
const privateCache = new Map<string, KeyObject>();

function keyObject(key: KeyInput, kind: 'public' | 'private'): KeyObject {
  if (typeof key !== 'string') return key;
  const cache = kind === 'public' ? publicCache : privateCache;
  let k = cache.get(key);
  if (!k) {
    try {
      k =
        kind === 'public'
          ? createPublicKey(normalizePem(key, 'PUBLIC KEY'))
          : createPrivateKey(normalizePem(key, 'PRIVATE KEY'));
    } catch {
      throw new RsaError(`The RSA ${kind} key is not a valid PEM or base64 key`);
    }
    cache.set(key, k);
  }
  return k;
}

export function publicKeyObject(key: KeyInput): KeyObject {
  return keyObject(key, 'public');
}

export function privateKeyObject(key: KeyInput): KeyObject {
  return keyObject(key, 'private');
}

/** Accepts a PEM, or the bare base64 body that dashboards often show, and returns a PEM. */
function normalizePem(text: string, label: 'PUBLIC KEY' | 'PRIVATE KEY'): string {
  const t = text.trim();
  if (t.startsWith('-----BEGIN')) return t.replace(/\r\n/g, '\n') + '\n';
  const body = t.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]+=*$/.test(body)) throw new RsaError('The key is neither PEM nor base64');
  return `-----BEGIN ${label}-----\n${body.replace(/(.{64})/g, '$1\n').replace(/\n$/, '')}\n-----END ${label}-----\n`;
}

function modulusBytes(key: KeyObject): number {
  const bits = key.asymmetricKeyDetails?.modulusLength;
  if (!bits) throw new RsaError('Not an RSA key');
  return bits / 8;
}

/** RSA PKCS#1 v1.5 encryption of UTF-8 text, chunked, ciphertext blocks concatenated, base64. */
export function rsaEncryptChunked(publicKey: KeyInput, plaintext: string, chunked = true): string {
  const key = publicKeyObject(publicKey);
  const size = modulusBytes(key);
  const data = Buffer.from(plaintext, 'utf8');
  const chunk = size - 11;
  if (!chunked && data.length > chunk)
    throw new RsaError(`Plaintext of ${data.length} bytes does not fit one RSA block`);
  const blocks: Buffer[] = [];
  for (let off = 0; off < data.length || off === 0; off += chunk) {
    blocks.push(publicEncrypt({ key, padding: constants.RSA_PKCS1_PADDING }, data.subarray(off, off + chunk)));
    if (data.length === 0) break;
  }
  return Buffer.concat(blocks).toString('base64');
}

/** Inverse of rsaEncryptChunked. Throws RsaError on any malformed block or padding. */
export function rsaDecryptChunked(privateKey: KeyInput, base64: string): string {
  const key = privateKeyObject(privateKey);
  const size = modulusBytes(key);
  if (!/^[A-Za-z0-9+/]*=*$/.test(base64)) throw new RsaError('Ciphertext is not base64');
  const data = Buffer.from(base64, 'base64');
  if (data.length === 0 || data.length % size !== 0)
    throw new RsaError('Ciphertext length is not a whole number of RSA blocks');
  const parts: Buffer[] = [];
  for (let off = 0; off < data.length; off += size) {
    let raw: Buffer;
    try {
      raw = privateDecrypt({ key, padding: constants.RSA_NO_PADDING }, data.subarray(off, off + size));
    } catch {
      throw new RsaError('Ciphertext block could not be decrypted');
    }
    parts.push(stripPkcs1Type2(raw, size));
  }
  return Buffer.concat(parts).toString('utf8');
}

function stripPkcs1Type2(block: Buffer, size: number): Buffer {
  // Left-pad: raw RSA output is exactly `size` bytes from Node, but be strict anyway.
  if (block.length !== size || block[0] !== 0x00 || block[1] !== 0x02) throw new RsaError('Bad padding');
  let i = 2;
  while (i < block.length && block[i] !== 0x00) i++;
  if (i >= block.length || i < 10) throw new RsaError('Bad padding');
  return block.subarray(i + 1);
}

export function rsaSign(privateKey: KeyInput, message: string, hash: SignHash = 'SHA256'): string {
  return createSign(`RSA-${hash}`).update(message, 'utf8').sign(privateKeyObject(privateKey), 'base64');
}

export function rsaVerify(
  publicKey: KeyInput,
  message: string,
  signatureB64: string,
  hash: SignHash = 'SHA256',
): boolean {
  if (typeof signatureB64 !== 'string' || signatureB64.length === 0) return false;
  try {
    return createVerify(`RSA-${hash}`)
      .update(message, 'utf8')
      .verify(publicKeyObject(publicKey), signatureB64, 'base64');
  } catch {
    return false;
  }
}

/** The two published forms a POS response signature is computed over. */
export function posResponseSignStrings(envelope: Record<string, unknown>): { dataTimestamp: string; sortedKv: string } {
  const data = envelope.data;
  const dataText = typeof data === 'string' ? data : data == null ? '' : JSON.stringify(data);
  const dataTimestamp = `${dataText}${String(envelope.timestamp ?? '')}`;
  const sortedKv = Object.keys(envelope)
    .filter((k) => k !== 'sign' && envelope[k] !== null && envelope[k] !== undefined)
    .sort()
    .map((k) => {
      const v = envelope[k];
      return `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`;
    })
    .join('&');
  return { dataTimestamp, sortedKv };
}
