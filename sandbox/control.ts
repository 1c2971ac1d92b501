// The /_sandbox/ control API (no auth: a loopback tool for tests and the Demo terminal panel).
// It calls the same in-process API that startSandbox() returns.
//
//   GET    /_sandbox/health
//   GET    /_sandbox/terminals                      every terminal's screen
//   GET    /_sandbox/terminals/{sn}                 one terminal's screen (idle / awaiting-card)
//   POST   /_sandbox/terminals/{sn}/present         {outcome: SUCCESS|FAIL|CANCEL, senderName?, cardPan?}
//   GET    /_sandbox/orders                         {posOrders, topups}
//   POST   /_sandbox/reset
//   POST   /_sandbox/merchants/{headMerchantId}/webhook   {url: string|null}
//   GET    /_sandbox/faults                         rules with remaining counts and hits
//   POST   /_sandbox/faults                         {faults: FaultRule[]} replaces all rules
//   DELETE /_sandbox/faults
//   POST   /_sandbox/orders/{orderNo}/late          {status: SUCCESS|FAIL|CANCEL|CLOSE, senderName?, cardPan?}:
//                                                   the provider changes its mind about a settled order
//                                                   (takes the payment after it was closed, or reports a
//                                                   paid order otherwise); a new webhook goes out
//   POST   /_sandbox/webhooks/redeliver             {orderNo, timestampOffsetMs?}
//   GET    /_sandbox/clock                          {offsetMs, sendDate}
//   POST   /_sandbox/clock                          {offsetMs?, sendDate?}: skew the provider's clock
//                                                   (requests more than 5 min off it get 10002) and
//                                                   switch the HTTP Date header on or off
// Answers: {code:"00000", message:"SUCCESSFUL", data} or {code, message, data:null} with
// HTTP 400 (bad arguments), 404 (unknown terminal/order/merchant/path), 405, 409 (nothing to do).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ZodError } from 'zod';
import { CODES, SUCCESS_MESSAGE, SandboxControlError, SandboxError } from './codes';
import { formatIssues } from './config';
import type { FaultRule, FaultRuleState } from './faults';
import type { SandboxClockState } from './sandbox-clock';
import { sendJson } from '../protocol/http';
import { parseJsonObject, readBody } from './http-util';
import type {
  CardPresentation,
  PosOrderStatus,
  SandboxPosOrder,
  SandboxTopup,
  TerminalOutcome,
  TerminalScreen,
} from './types';
import type { WebhookAttempt } from './webhooks';

export interface ControlTarget {
  url: string;
  present(sn: string, outcome: TerminalOutcome, card?: CardPresentation): SandboxPosOrder;
  terminalScreen(sn: string): TerminalScreen;
  terminalScreens(): TerminalScreen[];
  listPosOrders(): SandboxPosOrder[];
  listTopups(): SandboxTopup[];
  reset(): void;
  setWebhookUrl(headMerchantId: string, url: string | null): void;
  setFaults(rules: FaultRule[]): void;
  clearFaults(): void;
  listFaults(): FaultRuleState[];
  reportLate(orderNo: string, status: Exclude<PosOrderStatus, 'PENDING'>, card?: CardPresentation): SandboxPosOrder;
  redeliverWebhook(orderNo: string, opts?: { timestampOffsetMs?: number }): Promise<WebhookAttempt>;
  clockState(): SandboxClockState;
  setClock(patch: Partial<SandboxClockState>): SandboxClockState;
}

const CONTROL_STATUS = { NOT_FOUND: 404, CONFLICT: 409, BAD_ARGUMENTS: 400 } as const;
const OUTCOMES = ['SUCCESS', 'FAIL', 'CANCEL'];
const LATE_STATUSES = ['SUCCESS', 'FAIL', 'CANCEL', 'CLOSE'];

function cardOf(body: Record<string, unknown>): CardPresentation {
  const card: CardPresentation = {};
  if (typeof body.senderName === 'string') card.senderName = body.senderName;
  if (typeof body.cardPan === 'string') card.cardPan = body.cardPan;
  return card;
}

export function createControlHandler(target: () => ControlTarget) {
  return async function control(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const method = req.method ?? 'GET';
    const ok = (data: unknown) => sendJson(res, 200, { code: CODES.OK, message: SUCCESS_MESSAGE, data });
    const fail = (status: number, message: string) =>
      sendJson(res, status, { code: `00${status}`, message, data: null });
    const only = (allowed: string) => {
      if (allowed.split(',').includes(method)) return true;
      sendJson(
        res,
        405,
        { code: CODES.METHOD, message: `${method} is not allowed on ${path}; use ${allowed}`, data: null },
        { Allow: allowed },
      );
      return false;
    };
    const json = async () => parseJsonObject(req, await readBody(req), true);
    const t = target();
    const seg = path
      .split('/')
      .slice(2)
      .map((s) => decodeURIComponent(s));
    try {
      if (seg[0] === 'health' && seg.length === 1) {
        if (only('GET')) ok({ ok: true, url: t.url });
      } else if (seg[0] === 'terminals' && seg.length === 1) {
        if (only('GET')) ok(t.terminalScreens());
      } else if (seg[0] === 'terminals' && seg.length === 2 && seg[1]) {
        if (only('GET')) ok(t.terminalScreen(seg[1]));
      } else if (seg[0] === 'terminals' && seg.length === 3 && seg[1] && seg[2] === 'present') {
        if (!only('POST')) return;
        const body = await json();
        if (typeof body.outcome !== 'string' || !OUTCOMES.includes(body.outcome))
          throw new SandboxControlError('BAD_ARGUMENTS', 'outcome must be SUCCESS, FAIL or CANCEL');
        ok(t.present(seg[1], body.outcome as TerminalOutcome, cardOf(body)));
      } else if (seg[0] === 'orders' && seg.length === 3 && seg[1] && seg[2] === 'late') {
        if (!only('POST')) return;
        const body = await json();
        if (typeof body.status !== 'string' || !LATE_STATUSES.includes(body.status))
          throw new SandboxControlError('BAD_ARGUMENTS', 'status must be SUCCESS, FAIL, CANCEL or CLOSE');
        ok(t.reportLate(seg[1], body.status as Exclude<PosOrderStatus, 'PENDING'>, cardOf(body)));
      } else if (seg[0] === 'orders' && seg.length === 1) {
        if (only('GET')) ok({ posOrders: t.listPosOrders(), topups: t.listTopups() });
      } else if (seg[0] === 'reset' && seg.length === 1) {
        if (!only('POST')) return;
        await json();
        t.reset();
        ok({ reset: true });
      } else if (seg[0] === 'merchants' && seg.length === 3 && seg[1] && seg[2] === 'webhook') {
        if (!only('POST')) return;
        const body = await json();
        if (body.url !== null && typeof body.url !== 'string')
          throw new SandboxControlError('BAD_ARGUMENTS', 'url must be a string or null');
        t.setWebhookUrl(seg[1], body.url);
        ok({ headMerchantId: seg[1], webhookUrl: body.url });
      } else if (seg[0] === 'faults' && seg.length === 1) {
        if (!only('GET,POST,DELETE')) return;
        if (method === 'POST') {
          const body = await json();
          if (!Array.isArray(body.faults)) throw new SandboxControlError('BAD_ARGUMENTS', 'send {"faults": [...]}');
          t.setFaults(body.faults as FaultRule[]);
        } else if (method === 'DELETE') t.clearFaults();
        ok(t.listFaults());
      } else if (seg[0] === 'webhooks' && seg[1] === 'redeliver' && seg.length === 2) {
        if (!only('POST')) return;
        const body = await json();
        if (typeof body.orderNo !== 'string' || !body.orderNo)
          throw new SandboxControlError('BAD_ARGUMENTS', 'orderNo is required');
        const offset = body.timestampOffsetMs;
        if (offset !== undefined && (typeof offset !== 'number' || !Number.isInteger(offset)))
          throw new SandboxControlError('BAD_ARGUMENTS', 'timestampOffsetMs must be a whole number');
        ok(await t.redeliverWebhook(body.orderNo, offset === undefined ? {} : { timestampOffsetMs: offset }));
      } else if (seg[0] === 'clock' && seg.length === 1) {
        if (!only('GET,POST')) return;
        if (method === 'GET') {
          ok(t.clockState());
          return;
        }
        const body = await json();
        const patch: Partial<SandboxClockState> = {};
        if (body.offsetMs !== undefined) {
          if (
            typeof body.offsetMs !== 'number' ||
            !Number.isInteger(body.offsetMs) ||
            Math.abs(body.offsetMs) > 10 * 365 * 86_400_000
          )
            throw new SandboxControlError(
              'BAD_ARGUMENTS',
              'offsetMs must be a whole number of milliseconds (at most 10 years either way)',
            );
          patch.offsetMs = body.offsetMs;
        }
        if (body.sendDate !== undefined) {
          if (typeof body.sendDate !== 'boolean')
            throw new SandboxControlError('BAD_ARGUMENTS', 'sendDate must be true or false');
          patch.sendDate = body.sendDate;
        }
        ok(t.setClock(patch));
      } else {
        fail(404, `no such control path: ${path}`);
      }
    } catch (e) {
      if (e instanceof SandboxControlError) fail(CONTROL_STATUS[e.code], e.message);
      else if (e instanceof ZodError) fail(400, `fault rules are not valid:\n${formatIssues(e)}`);
      else if (e instanceof SandboxError)
        sendJson(res, e.status, { code: e.code, message: e.message, data: null }, e.headers);
      else throw e;
    }
  };
}
