// POS orders held by the sandbox: PENDING until the terminal settles them (SUCCESS / FAIL /
// CANCEL) or orderExpireTime passes (CLOSE, checked on every read and by a timer), then the
// settlement webhook to the merchant, retried until it answers {"code":"00000"}.
import { koboToNairaString } from '../shared/money';
import { canonicalJson, rsaEncryptChunked, rsaSign } from '../protocol/crypto';
import { SandboxControlError } from './codes';
import type { PosMerchant } from './config';
import type { SandboxContext } from './context';
import { tamperSignature } from './faults';
import { POS_VERSION } from './pos-envelope';
import { posReceiverAccepted, type OutgoingRequest, type WebhookAttempt } from './webhooks';
import {
  newDeliveryStatus,
  type CardPresentation,
  type PosOrderStatus,
  type SandboxPosOrder,
  type TerminalOutcome,
  type TerminalScreen,
} from './types';

export interface NewPosOrder {
  outOrderNo: string;
  headMerchantId: string;
  merchantId: string;
  sn: string;
  amountKobo: number;
  orderExpireSeconds: number;
  subSceneEnum: string;
  isSplit: 'Y' | 'N';
  splitInfo: unknown;
  productInfo: Record<string, unknown> | null;
  remark: string | null;
}

const SENDERS = ['ADEBAYO OLUWASEUN', 'CHIOMA NWANKWO', 'IBRAHIM MUSA', 'FOLAKE ADEYEMI'];
const CARDS = ['5399831234561234', '4187451234569876', '5061001234567890123', '5199110000004321'];

export function maskPan(pan: string): string {
  const digits = pan.replace(/\D/g, '');
  if (digits.length < 12) return '******';
  return `${digits.slice(0, 6)}${'*'.repeat(digits.length - 10)}${digits.slice(-4)}`;
}

const naira = koboToNairaString;

export class PosOrderStore {
  private orders = new Map<string, SandboxPosOrder>();
  private byOut = new Map<string, string>();
  private webhookUrls = new Map<string, string | null>();
  private seq = 0;

  constructor(private readonly ctx: SandboxContext) {
    this.reset();
  }

  reset(): void {
    this.orders.clear();
    this.byOut.clear();
    this.webhookUrls = new Map(this.ctx.config.pos.merchants.map((m) => [m.headMerchantId, m.webhookUrl]));
  }

  merchant(headMerchantId: string): PosMerchant {
    const m = this.ctx.config.pos.merchants.find((x) => x.headMerchantId === headMerchantId);
    if (!m) throw new SandboxControlError('NOT_FOUND', `no POS merchant with headMerchantId "${headMerchantId}"`);
    return m;
  }

  setWebhookUrl(headMerchantId: string, url: string | null): void {
    this.merchant(headMerchantId);
    if (url !== null && !/^https?:\/\/\S+$/i.test(url))
      throw new SandboxControlError(
        'BAD_ARGUMENTS',
        'the webhook URL must be a full http:// or https:// address, or null',
      );
    this.webhookUrls.set(headMerchantId, url);
  }

  create(input: NewPosOrder): SandboxPosOrder {
    const now = this.ctx.clock.now();
    const o: SandboxPosOrder = {
      orderNo: this.ctx.ids.orderNo(),
      outOrderNo: input.outOrderNo,
      headMerchantId: input.headMerchantId,
      merchantId: input.merchantId,
      sn: input.sn,
      amountKobo: input.amountKobo,
      currency: 'NGN',
      subSceneEnum: input.subSceneEnum,
      isSplit: input.isSplit,
      splitInfo: input.splitInfo,
      productInfo: input.productInfo,
      remark: input.remark,
      status: 'PENDING',
      createdAt: now,
      expiresAt: now + input.orderExpireSeconds * 1000,
      settledAt: null,
      payNo: null,
      feeKobo: 0,
      senderName: '',
      senderAccount: '',
      webhook: newDeliveryStatus(),
      queriedAt: [],
    };
    this.orders.set(o.orderNo, o);
    this.byOut.set(this.outKey(o.headMerchantId, o.outOrderNo), o.orderNo);
    this.ctx.logger.info('sandbox: POS order created', { orderNo: o.orderNo, sn: o.sn, amountKobo: o.amountKobo });
    this.ctx.events.emit('pos-order-created', structuredClone(o));
    this.ctx.timers.at(o.expiresAt, () => this.expire(o));
    const terminal = this.ctx.config.pos.terminals.find((t) => t.sn === o.sn);
    if (terminal?.autoOutcome) {
      const outcome = terminal.autoOutcome;
      this.ctx.timers.at(now + terminal.autoAfterMs, () => {
        this.expire(o);
        if (o.status === 'PENDING') this.settle(o, outcome, {});
      });
    }
    return structuredClone(o);
  }

  /** Records a merchant's status query of this order (the control API lists them per order). */
  noteQuery(orderNo: string): void {
    this.orders.get(orderNo)?.queriedAt.push(this.ctx.clock.now());
  }

  existsOut(headMerchantId: string, outOrderNo: string): boolean {
    return this.byOut.has(this.outKey(headMerchantId, outOrderNo));
  }

  /** Finds an order by the provider's or the merchant's number (expiry applied first). */
  find(by: { orderNo: string } | { outOrderNo: string; headMerchantId: string }): SandboxPosOrder | undefined {
    const orderNo = 'orderNo' in by ? by.orderNo : this.byOut.get(this.outKey(by.headMerchantId, by.outOrderNo));
    const o = orderNo ? this.orders.get(orderNo) : undefined;
    if (!o) return undefined;
    this.expire(o);
    return structuredClone(o);
  }

  list(): SandboxPosOrder[] {
    return [...this.orders.values()].map((o) => {
      this.expire(o);
      return structuredClone(o);
    });
  }

  present(sn: string, outcome: TerminalOutcome, card: CardPresentation = {}): SandboxPosOrder {
    this.terminal(sn);
    const o = this.pendingOn(sn)[0];
    if (!o) throw new SandboxControlError('CONFLICT', `terminal ${sn} has no pending order to settle`);
    this.settle(o, outcome, card);
    return structuredClone(o);
  }

  terminalScreen(sn: string): TerminalScreen {
    const t = this.terminal(sn);
    const pending = this.pendingOn(sn);
    const o = pending[0];
    if (!o) return { sn, merchantId: t.merchantId, state: 'idle', queued: 0 };
    return {
      sn,
      merchantId: t.merchantId,
      state: 'awaiting-card',
      queued: pending.length,
      order: {
        orderNo: o.orderNo,
        outOrderNo: o.outOrderNo,
        amount: naira(o.amountKobo),
        amountKobo: o.amountKobo,
        currency: 'NGN',
        expiresAt: o.expiresAt,
        secondsLeft: Math.max(0, Math.ceil((o.expiresAt - this.ctx.clock.now()) / 1000)),
        productInfo: structuredClone(o.productInfo),
        remark: o.remark,
      },
    };
  }

  /** The query's data for an order. Unknown details of a PENDING order are left out. */
  details(o: SandboxPosOrder): Record<string, unknown> {
    const m = this.merchant(o.headMerchantId);
    const settled = o.status !== 'PENDING';
    return {
      outOrderNo: o.outOrderNo,
      orderNo: o.orderNo,
      ...(settled ? { payNo: o.payNo ?? '' } : {}),
      headMerchantId: o.headMerchantId,
      merchantId: o.merchantId,
      status: o.status,
      ...(settled ? { senderName: o.senderName, senderAccount: o.senderAccount } : {}),
      recipientName: m.recipientName,
      recipientAccount: m.recipientAccount,
      amount: naira(o.amountKobo),
      ...(settled ? { fee: naira(o.feeKobo) } : {}),
      feePattern: 'IN_DEDUCT',
      currency: o.currency,
      transactionTime: String(o.createdAt),
      ...(settled ? { completedTime: String(o.settledAt ?? o.createdAt) } : {}),
      transactionType: 'apiCheckout',
      transactionName: 'POS Checkout Payment',
      payType: 'POS',
      ...(o.productInfo ? { productInfo: o.productInfo } : {}),
      sn: o.sn,
      remark: o.remark,
    };
  }

  /** The webhook's notification fields: all strings, all present. */
  notificationFields(o: SandboxPosOrder): Record<string, string> {
    const m = this.merchant(o.headMerchantId);
    return {
      outOrderNo: o.outOrderNo,
      orderNo: o.orderNo,
      status: o.status,
      currency: o.currency,
      amount: naira(o.amountKobo),
      fee: naira(o.feeKobo),
      feePattern: 'IN_DEDUCT',
      senderName: o.senderName,
      senderAccount: o.senderAccount,
      recipientName: m.recipientName,
      recipientAccount: m.recipientAccount,
      transactionTime: String(o.createdAt),
      completedTime: String(o.settledAt ?? ''),
      transactionType: 'apiCheckout',
      transactionName: 'POS Checkout Payment',
      payType: 'POS',
      sn: o.sn,
      remark: o.remark ?? '',
    };
  }

  /**
   * The provider changes its mind about a settled order: takes the payment after the order was
   * closed (SUCCESS after CLOSE, FAIL or CANCEL), or reports a paid order otherwise. The order's
   * query answers the new status from now on and a new settlement webhook goes out.
   */
  reportLate(
    orderNo: string,
    status: Exclude<PosOrderStatus, 'PENDING'>,
    card: CardPresentation = {},
  ): SandboxPosOrder {
    const o = this.orders.get(orderNo);
    if (!o) throw new SandboxControlError('NOT_FOUND', `no POS order ${orderNo}`);
    this.expire(o);
    if (o.status === 'PENDING')
      throw new SandboxControlError(
        'CONFLICT',
        `order ${orderNo} is still PENDING; settle it first (present a card, or let it expire)`,
      );
    if (o.status === status) throw new SandboxControlError('CONFLICT', `order ${orderNo} is ${status} already`);
    const was = o.status;
    o.status = 'PENDING'; // settled afresh, with everything a settlement brings (payNo, card, fee, webhook)
    o.webhook = newDeliveryStatus();
    this.settle(o, status, card, true);
    this.ctx.events.emit('pos-order-late', structuredClone(o), was);
    return structuredClone(o);
  }

  /** Sends the settlement webhook once more (no retries); `timestampOffsetMs` makes it look late. */
  async redeliver(orderNo: string, opts: { timestampOffsetMs?: number } = {}): Promise<WebhookAttempt> {
    const o = this.orders.get(orderNo);
    if (!o) throw new SandboxControlError('NOT_FOUND', `no POS order ${orderNo}`);
    this.expire(o);
    if (o.status === 'PENDING')
      throw new SandboxControlError(
        'CONFLICT',
        `order ${orderNo} is still PENDING; only settled orders have a webhook`,
      );
    if (!this.webhookUrls.get(o.headMerchantId))
      throw new SandboxControlError('CONFLICT', `merchant ${o.headMerchantId} has no webhook URL registered`);
    return this.ctx.webhooks.once({
      kind: 'pos',
      orderNo,
      status: o.webhook,
      build: () => this.webhookRequest(o, opts.timestampOffsetMs ?? 0),
      accept: posReceiverAccepted,
    });
  }

  private outKey(headMerchantId: string, outOrderNo: string): string {
    return `${headMerchantId}\u0000${outOrderNo}`;
  }

  private terminal(sn: string) {
    const t = this.ctx.config.pos.terminals.find((x) => x.sn === sn);
    if (!t) throw new SandboxControlError('NOT_FOUND', `no terminal with sn "${sn}"`);
    return t;
  }

  private pendingOn(sn: string): SandboxPosOrder[] {
    const out: SandboxPosOrder[] = [];
    for (const o of this.orders.values()) {
      if (o.sn !== sn) continue;
      this.expire(o);
      if (o.status === 'PENDING') out.push(o);
    }
    return out.sort((a, b) => a.createdAt - b.createdAt);
  }

  private expire(o: SandboxPosOrder): void {
    if (o.status === 'PENDING' && this.ctx.clock.now() >= o.expiresAt) this.settle(o, 'CLOSE', {});
  }

  private settle(
    o: SandboxPosOrder,
    status: Exclude<PosOrderStatus, 'PENDING'>,
    card: CardPresentation,
    late = false,
  ): void {
    if (o.status !== 'PENDING') return;
    if (!late) this.planLateOutcome(o, status);
    const n = this.seq++;
    const cardPresented = status === 'SUCCESS' || status === 'FAIL';
    o.status = status;
    o.settledAt = this.ctx.clock.now();
    if (cardPresented) {
      o.payNo = this.ctx.ids.orderNo();
      o.senderName = card.senderName ?? SENDERS[n % SENDERS.length] ?? 'CARD HOLDER';
      o.senderAccount = maskPan(card.cardPan ?? CARDS[n % CARDS.length] ?? '5399831234561234');
    } else {
      o.payNo = '';
    }
    if (status === 'SUCCESS') {
      const cfg = this.ctx.config.pos;
      o.feeKobo = Math.min(Math.floor((o.amountKobo * cfg.feeRateBps) / 10_000), cfg.feeCapKobo);
    }
    this.ctx.logger.info('sandbox: POS order settled', { orderNo: o.orderNo, status });
    this.ctx.events.emit('pos-order-settled', structuredClone(o));
    if (!this.webhookUrls.get(o.headMerchantId)) {
      o.webhook.httpMessage = 'no webhook URL registered';
      return;
    }
    this.ctx.webhooks.deliver({
      kind: 'pos',
      orderNo: o.orderNo,
      status: o.webhook,
      build: () => this.webhookRequest(o, 0),
      accept: posReceiverAccepted,
    });
  }

  /** The "settle:pos" faults: the provider will change its mind about this settlement. */
  private planLateOutcome(o: SandboxPosOrder, status: Exclude<PosOrderStatus, 'PENDING'>): void {
    const f = this.ctx.faults.decide('settle:pos');
    const to =
      f.action === 'lateSuccess' && status !== 'SUCCESS'
        ? 'SUCCESS'
        : f.action === 'lateReversal' && status === 'SUCCESS'
          ? 'FAIL'
          : null;
    if (!to || !f.action) return;
    this.ctx.events.emit('fault', { path: 'settle:pos', kind: f.action });
    this.ctx.timers.at(this.ctx.clock.now() + f.afterMs, () => {
      if (o.status === status) this.reportLate(o.orderNo, to);
    });
  }

  private webhookRequest(o: SandboxPosOrder, timestampOffsetMs: number): OutgoingRequest | string {
    const url = this.webhookUrls.get(o.headMerchantId);
    if (!url) return 'no webhook URL registered';
    const cfg = this.ctx.config.pos;
    const m = this.merchant(o.headMerchantId);
    const fields = this.notificationFields(o);
    const timestamp = String(this.ctx.clock.now() + timestampOffsetMs);
    const paramContent = rsaEncryptChunked(
      m.merchantPublicKey,
      canonicalJson(cfg.webhookPayloadForm === 'wrapped' ? { data: fields } : fields),
    );
    let sign = rsaSign(cfg.providerPrivateKey, paramContent + timestamp, cfg.signHash);
    if (this.ctx.faults.decide('webhook:pos').action === 'tamperSign') {
      sign = tamperSignature(sign);
      this.ctx.events.emit('fault', { path: 'webhook:pos', kind: 'tamperSign' });
    }
    return {
      url,
      headers: { [cfg.webhookTranIdHeader]: o.orderNo, merchantId: o.merchantId },
      body: JSON.stringify({
        clientAuthKey: m.clientAuthKey,
        version: POS_VERSION,
        bodyFormat: 'JSON',
        timestamp,
        paramContent,
        sign,
      }),
    };
  }
}
