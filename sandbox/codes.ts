// The sandbox's answer codes, and the error it throws to produce them. The real provider
// documents only "00000" (and "00003" in one public issue); the rest are the sandbox's choice.
//
// code    HTTP  meaning                                                   used by
// 00000   200   SUCCESSFUL                                                all
// 00001   401   authentication refused: missing/unknown MerchantId, wrong   bills
//               public key, bills HMAC signature does not verify
// 00002   200   invalid parameter; the message names the field            bills, POS
// 00002   400   request not understood: body not JSON / not an object     bills, POS
// 00003   200   bills: "Not support this merchant service type"           bills
// 00003   200   POS: "order not exist" (code configurable: pos.notFoundCode)  POS
// 00004   200   bills validate: unknown provider or customer              bills
// 00005   200   POS: order already exists (same outOrderNo, same merchant) POS
// 10001   200   POS: missing or unknown clientAuthKey (unsigned)               POS
// 10002   200   POS: timestamp header missing, not digits, or more than 5 min  POS
//               from the provider's clock: "timestamp expired" (unsigned)
// 10004   200   POS: sign does not verify, or paramContent does not decrypt    POS
//               (reported alike) (unsigned)
// 00404   404   unknown path                                              all
// 00405   405   method not allowed (Allow header says which)             all
// 00413   413   body over 1 MB                                            all
// 00415   415   Content-Type is not application/json                      all
// 99999   500   internal error (a sandbox bug) or an injected HTTP 500    all
// Injected 502/503 answer an HTML page, like a gateway in front of the provider would.

export const CODES = {
  OK: '00000',
  AUTH: '00001',
  INVALID: '00002',
  SERVICE_TYPE: '00003',
  NOT_FOUND: '00003',
  CUSTOMER: '00004',
  EXISTS: '00005',
  POS_CLIENT_AUTH: '10001',
  POS_TIMESTAMP: '10002',
  POS_SIGN: '10004',
  NO_ROUTE: '00404',
  METHOD: '00405',
  TOO_LARGE: '00413',
  CONTENT_TYPE: '00415',
  INTERNAL: '99999',
} as const;

export const SUCCESS_MESSAGE = 'SUCCESSFUL';

/** A refusal the sandbox answers with `{code, message, data: null}` at the given HTTP status. */
export class SandboxError extends Error {
  readonly status: number;
  readonly code: string;
  readonly headers: Record<string, string>;
  constructor(status: number, code: string, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = 'SandboxError';
    this.status = status;
    this.code = code;
    this.headers = headers;
  }
}

export const authError = (message: string) => new SandboxError(401, CODES.AUTH, message);

/**
 * How the POS gateway refuses who is calling (key, clock, signature): HTTP 200, a 1000x code, and
 * no sign, because it answers before it knows which merchant's keys to use.
 */
export class PosGatewayRefusal extends SandboxError {
  constructor(
    code: typeof CODES.POS_CLIENT_AUTH | typeof CODES.POS_TIMESTAMP | typeof CODES.POS_SIGN,
    message: string,
  ) {
    super(200, code, message);
    this.name = 'PosGatewayRefusal';
  }
}
export const invalid = (message: string) => new SandboxError(200, CODES.INVALID, `invalid parameter: ${message}`);
export const badRequest = (message: string) => new SandboxError(400, CODES.INVALID, message);

/** Errors raised by the in-process control API (present on an idle terminal, unknown order...). */
export class SandboxControlError extends Error {
  readonly code: 'NOT_FOUND' | 'CONFLICT' | 'BAD_ARGUMENTS';
  constructor(code: 'NOT_FOUND' | 'CONFLICT' | 'BAD_ARGUMENTS', message: string) {
    super(message);
    this.name = 'SandboxControlError';
    this.code = code;
  }
}
