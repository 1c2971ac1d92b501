// The provider's side of the wire, reduced to what client tests need: it opens POS requests with
// the provider key (checking the merchant's signature) and builds signed, encrypted POS answers.
import {
  canonicalJson,
  posResponseSignStrings,
  rsaDecryptChunked,
  rsaEncryptChunked,
  rsaSign,
  rsaVerify,
} from '../../../protocol/crypto';
import { keys } from '../../unit/provider/fixtures';
import type { RecordedRequest } from './test-server';

export interface OpenedPosRequest {
  headers: RecordedRequest['headers'];
  object: Record<string, unknown>;
  plaintext: string;
  signatureValid: boolean;
}

export function openPosRequest(req: RecordedRequest): OpenedPosRequest {
  const body = JSON.parse(req.body) as { paramContent: string; sign: string };
  const timestamp = String(req.headers.timestamp ?? '');
  const plaintext = rsaDecryptChunked(keys.providerPrivateKey, body.paramContent);
  return {
    headers: req.headers,
    plaintext,
    object: JSON.parse(plaintext) as Record<string, unknown>,
    signatureValid: rsaVerify(keys.merchantPublicKey, body.paramContent + timestamp, body.sign),
  };
}

export function posAnswer(
  code: string,
  message: string,
  data: unknown,
  opts: { encrypt?: boolean; form?: 'dataTimestamp' | 'sortedKv'; badSign?: boolean } = {},
): Record<string, unknown> {
  const env: Record<string, unknown> = {
    code,
    message,
    data:
      data !== null && opts.encrypt !== false ? rsaEncryptChunked(keys.merchantPublicKey, canonicalJson(data)) : data,
    timestamp: String(Date.now()),
  };
  const forms = posResponseSignStrings(env);
  // sortedKv by default: the form that also covers `code` (a refusal under data+timestamp proves nothing).
  env.sign = rsaSign(opts.badSign ? keys.merchantPrivateKey : keys.providerPrivateKey, forms[opts.form ?? 'sortedKv']);
  return env;
}
