// The sandbox's one HTTP listener: routes API calls (with fault injection) and /_sandbox/
// control calls; any bad input gets a JSON answer and the server keeps serving.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CODES, SandboxError } from './codes';
import type { SandboxContext } from './context';
import { tamperSignature } from './faults';
import { guardedHandler, sendJson, sendText } from '../protocol/http';
import { readBody } from './http-util';
import type { ApiFamily, ApiResult, ApiRoute } from './routes';

export type ErrorFormatter = (e: SandboxError) => ApiResult;
export type ControlHandler = (req: IncomingMessage, res: ServerResponse, path: string) => Promise<void>;

function gatewayPage(status: 502 | 503): string {
  const title = status === 502 ? '502 Bad Gateway' : '503 Service Temporarily Unavailable';
  return `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`;
}

/** Reads and discards a body, for answers that ignore it; never throws. */
async function drain(req: IncomingMessage): Promise<void> {
  try {
    await readBody(req);
  } catch {
    /* the answer does not depend on it */
  }
}

export function createRequestHandler(deps: {
  ctx: SandboxContext;
  routes: ApiRoute[];
  errorFor: Record<ApiFamily, ErrorFormatter>;
  control: ControlHandler;
}): (req: IncomingMessage, res: ServerResponse) => void {
  const { ctx, routes, errorFor, control } = deps;

  async function api(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const route = routes.find((r) => r.path === path);
    if (!route) {
      sendJson(res, 404, { code: CODES.NO_ROUTE, message: `no such path: ${path}`, data: null });
      return;
    }
    if (req.method !== 'POST') {
      sendJson(
        res,
        405,
        { code: CODES.METHOD, message: `${req.method} is not allowed on ${path}; use POST`, data: null },
        { Allow: 'POST' },
      );
      return;
    }
    const decision = ctx.faults.decide(path);
    if (decision.latencyMs > 0) await ctx.timers.sleep(decision.latencyMs);
    const action = decision.action;
    if (action) {
      ctx.logger.info('sandbox: fault injected', { path, kind: action });
      ctx.events.emit('fault', { path, kind: action });
    }
    if (action === 'drop') {
      await drain(req);
      req.socket.destroy();
      return;
    }
    if (action === 'http500' || action === 'http502' || action === 'http503') {
      await drain(req);
      if (action === 'http500') sendJson(res, 500, { code: CODES.INTERNAL, message: 'system error', data: null });
      else sendText(res, action === 'http502' ? 502 : 503, 'text/html', gatewayPage(action === 'http502' ? 502 : 503));
      return;
    }
    let result: ApiResult;
    try {
      const body = await readBody(req);
      result = route.handle({ req, path, body });
    } catch (e) {
      if (e instanceof SandboxError) result = errorFor[route.family](e);
      else {
        ctx.logger.error('sandbox: internal error', { path, error: (e as Error).message });
        result = errorFor[route.family](new SandboxError(500, CODES.INTERNAL, 'internal error in the sandbox'));
      }
    }
    if (action === 'commitThenDrop') {
      req.socket.destroy();
      return;
    }
    if (
      action === 'tamperSign' &&
      result.body &&
      typeof result.body === 'object' &&
      typeof (result.body as { sign?: unknown }).sign === 'string'
    ) {
      const b = result.body as { sign: string };
      result = { ...result, body: { ...b, sign: tamperSignature(b.sign) } };
    }
    ctx.logger.info('sandbox: request', { path, status: result.status });
    sendJson(res, result.status, result.body, result.headers);
  }

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    // Answers are dated by the sandbox's own (possibly skewed) clock, as a real server's would be.
    res.sendDate = false;
    const date = ctx.wireClock.dateHeader();
    if (date) res.setHeader('Date', date);
    const path = pathOf(req);
    await (path === '/_sandbox' || path.startsWith('/_sandbox/') ? control(req, res, path) : api(req, res, path));
  };
  return guardedHandler(handle, (e, req) => {
    ctx.logger.error('sandbox: request failed', { path: pathOf(req), error: (e as Error).message });
    return { status: 500, body: { code: CODES.INTERNAL, message: 'internal error in the sandbox', data: null } };
  });
}

function pathOf(req: IncomingMessage): string {
  try {
    return new URL(req.url ?? '/', 'http://sandbox.invalid').pathname;
  } catch {
    return '/';
  }
}
