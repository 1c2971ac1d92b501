// Known-answer tests: every crypto primitive against test/fixtures/test-vectors.json (described in
// docs/provider-protocol.md, "Known-answer vectors").
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  billsCallbackSignature,
  billsCallbackSignedString,
  canonicalJson,
  hmacSha512,
  posResponseSignStrings,
  rsaDecryptChunked,
  rsaEncryptChunked,
  rsaSign,
  rsaVerify,
  RsaError,
} from '../../../protocol/crypto';

const vectorsPath = resolve(__dirname, '../../fixtures/test-vectors.json');
const v = JSON.parse(readFileSync(vectorsPath, 'utf8'));

describe('canonical JSON', () => {
  it('sorts keys recursively, objects inside arrays too, compact', () => {
    expect(canonicalJson(v.canonicalJson.input)).toBe(v.canonicalJson.expected);
  });
  it('produces the POS canonical request', () => {
    expect(canonicalJson(v.posRequest.object)).toBe(v.posRequest.canonical);
  });
  it('escapes / and non-ASCII only when asked', () => {
    expect(canonicalJson({ u: 'a/b', n: 'Ọ' })).toBe('{"n":"Ọ","u":"a/b"}');
    expect(canonicalJson({ u: 'a/b', n: 'Ọ' }, { escaping: 'escape-slash-and-non-ascii' })).toBe(
      '{"n":"\\u1ecc","u":"a\\/b"}',
    );
  });
  it('sorts only the top level when recursion is off', () => {
    expect(canonicalJson({ b: { z: 1, a: 2 }, a: 1 }, { recursive: false })).toBe('{"a":1,"b":{"z":1,"a":2}}');
  });
});

describe('bills HMAC', () => {
  it('HMAC-SHA512 lowercase hex of the canonical body', () => {
    expect(hmacSha512(v.billsSignature.secretKey, v.billsSignature.message)).toBe(v.billsSignature.expected);
  });
  it('bills callback: fixed-format string and HMAC-SHA3-512', () => {
    expect(billsCallbackSignedString(v.billsCallback.payload)).toBe(v.billsCallback.signedString);
    expect(billsCallbackSignature(v.billsCallback.secretKey, v.billsCallback.payload)).toBe(v.billsCallback.expected);
  });
});

describe('POS RSA', () => {
  const k = v.rsaKeys;
  it('decrypts the vector paramContent to the canonical request', () => {
    expect(rsaDecryptChunked(k.providerPrivateKey, v.posRequest.paramContent)).toBe(v.posRequest.canonical);
  });
  it('signs paramContent + timestamp deterministically (SHA256withRSA)', () => {
    expect(v.posRequest.paramContent + v.posRequest.timestamp).toBe(v.posRequest.signedString);
    expect(rsaSign(k.merchantPrivateKey, v.posRequest.signedString)).toBe(v.posRequest.sign);
    expect(rsaVerify(k.merchantPublicKey, v.posRequest.signedString, v.posRequest.sign)).toBe(true);
  });
  it('round-trips chunked encryption across several blocks', () => {
    const text = 'x'.repeat(600) + 'Ọ';
    const ct = rsaEncryptChunked(k.providerPublicKey, text);
    expect(Buffer.from(ct, 'base64').length).toBe(256 * 3);
    expect(rsaDecryptChunked(k.providerPrivateKey, ct)).toBe(text);
  });
  it('response: data decrypts with the merchant key; both signature forms verify', () => {
    const r = v.posResponse;
    expect(JSON.parse(rsaDecryptChunked(k.merchantPrivateKey, r.envelope.data))).toEqual(r.dataPlain);
    const forms = posResponseSignStrings(r.envelope);
    expect(forms.sortedKv).toBe(r.kvString);
    expect(forms.dataTimestamp).toBe(r.dataTimestampString);
    expect(rsaVerify(k.providerPublicKey, forms.sortedKv, r.signKv)).toBe(true);
    expect(rsaVerify(k.providerPublicKey, forms.dataTimestamp, r.signDataTimestamp)).toBe(true);
    expect(rsaSign(k.providerPrivateKey, forms.sortedKv)).toBe(r.signKv);
    expect(rsaSign(k.providerPrivateKey, forms.dataTimestamp)).toBe(r.signDataTimestamp);
  });
  it('a tampered signature or message does not verify', () => {
    const r = v.posResponse;
    const forms = posResponseSignStrings(r.envelope);
    expect(rsaVerify(k.providerPublicKey, forms.sortedKv + 'x', r.signKv)).toBe(false);
    expect(rsaVerify(k.providerPublicKey, forms.sortedKv, r.signKv.replace(/^./, 'A'))).toBe(false);
    expect(rsaVerify(k.providerPublicKey, forms.sortedKv, '')).toBe(false);
  });
  it('a wrong key or garbage ciphertext fails as RsaError, never as plaintext', () => {
    expect(() => rsaDecryptChunked(k.merchantPrivateKey, v.posRequest.paramContent)).toThrow(RsaError);
    expect(() => rsaDecryptChunked(k.merchantPrivateKey, 'not base64!')).toThrow(RsaError);
    expect(() => rsaDecryptChunked(k.merchantPrivateKey, Buffer.alloc(100).toString('base64'))).toThrow(RsaError);
  });
});
