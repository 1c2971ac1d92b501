// The shape of an API route of the sandbox: a path, the API family it belongs to (which decides
// how refusals are wrapped), and a synchronous handler over the already-read body.
import type { IncomingMessage } from 'node:http';

export interface ApiRequest {
  req: IncomingMessage;
  path: string;
  body: Buffer;
}

export interface ApiResult {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export type ApiFamily = 'bills' | 'pos';

export interface ApiRoute {
  path: string;
  family: ApiFamily;
  handle(r: ApiRequest): ApiResult;
}
