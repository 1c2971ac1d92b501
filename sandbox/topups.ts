// Bills top-ups held by the sandbox: their INITIAL -> PENDING -> SUCCESS/FAIL life over
// settleAfterMs (read lazily and driven by timers), and the callback sent when they settle.
import { billsCallbackSignature } from '../protocol/crypto';
import type { SandboxContext } from './context';
import { tamperSignature } from './faults';
import { billsReceiverAccepted, type OutgoingRequest } from './webhooks';
import { newDeliveryStatus, type SandboxTopup } from './types';

interface TopupRecord extends SandboxTopup {
  /** errorMsg the item will carry if it ends in FAIL. */
  failMsg: string;
}

/** What a bulk-bills request says of one item; the rest of its record is the sandbox's own. */
export type NewTopup = Pick<
  SandboxTopup,
  'reference' | 'merchantId' | 'serviceType' | 'provider' | 'customerId' | 'amountKobo' | 'callBackUrl'
>;

const clone = (t: TopupRecord): SandboxTopup => {
  const { failMsg: _omit, ...rest } = t;
  return structuredClone(rest);
};

export class TopupStore {
  private byKey = new Map<string, TopupRecord>();

  constructor(private readonly ctx: SandboxContext) {}

  private key(merchantId: string, reference: string): string {
    return `${merchantId}\u0000${reference}`;
  }

  hasReference(merchantId: string, reference: string): boolean {
    return this.byKey.has(this.key(merchantId, reference));
  }

  /** Records an item refused on submission: it exists (status FAIL) and its reference is used. */
  addRejected(t: NewTopup, errorMsg: string): SandboxTopup {
    const r = this.insert(t, 'FAIL', errorMsg);
    r.status = 'FAIL';
    r.errorMsg = errorMsg;
    r.rejected = true;
    r.settledAt = r.createdAt;
    this.ctx.events.emit('topup-created', clone(r));
    return clone(r);
  }

  /** Records an accepted item and starts its life; returns its state as the answer shows it. */
  addAccepted(t: NewTopup): SandboxTopup {
    const fail = this.failRule(t.provider, t.customerId);
    const r = this.insert(t, fail ? 'FAIL' : 'SUCCESS', fail ?? '');
    this.ctx.events.emit('topup-created', clone(r));
    const settle = this.ctx.config.bills.settleAfterMs;
    if (settle === 0) this.settle(r);
    else {
      this.ctx.timers.at(r.createdAt + Math.floor(settle / 2), () => this.advance(r));
      this.ctx.timers.at(r.createdAt + settle, () => this.advance(r));
    }
    return clone(r);
  }

  get(merchantId: string, reference: string): SandboxTopup | undefined {
    const r = this.byKey.get(this.key(merchantId, reference));
    if (!r) return undefined;
    this.advance(r);
    return clone(r);
  }

  list(): SandboxTopup[] {
    return [...this.byKey.values()].map((r) => {
      this.advance(r);
      return clone(r);
    });
  }

  reset(): void {
    this.byKey.clear();
  }

  private insert(t: NewTopup, finalStatus: 'SUCCESS' | 'FAIL', failMsg: string): TopupRecord {
    const r: TopupRecord = {
      ...t,
      orderNo: this.ctx.ids.orderNo(),
      status: 'INITIAL',
      finalStatus,
      errorMsg: '',
      rejected: false,
      createdAt: this.ctx.clock.now(),
      settledAt: null,
      callback: newDeliveryStatus(t.callBackUrl ? 'not sent yet' : 'no callBackUrl given'),
      failMsg,
    };
    this.byKey.set(this.key(t.merchantId, t.reference), r);
    return r;
  }

  private failRule(provider: string, customerId: string): string | null {
    const rule = this.ctx.config.bills.failCustomers.find(
      (f) => f.customerId === customerId && (f.provider === undefined || f.provider === provider),
    );
    return rule ? rule.errorMsg : null;
  }

  /** Moves a record to where the clock says it should be; settling happens exactly once. */
  private advance(r: TopupRecord): void {
    if (r.rejected || r.status === 'SUCCESS' || r.status === 'FAIL') return;
    const settle = this.ctx.config.bills.settleAfterMs;
    const elapsed = this.ctx.clock.now() - r.createdAt;
    if (elapsed >= settle) this.settle(r);
    else if (elapsed >= Math.floor(settle / 2)) r.status = 'PENDING';
  }

  private settle(r: TopupRecord): void {
    r.status = r.finalStatus;
    r.errorMsg = r.finalStatus === 'FAIL' ? r.failMsg : '';
    r.settledAt = this.ctx.clock.now();
    this.ctx.logger.info('sandbox: top-up settled', { orderNo: r.orderNo, status: r.status });
    this.ctx.events.emit('topup-settled', clone(r));
    if (r.callBackUrl && (r.status === 'SUCCESS' || this.ctx.config.bills.callbackOnFail)) {
      this.ctx.webhooks.deliver({
        kind: 'bills',
        orderNo: r.orderNo,
        status: r.callback,
        build: () => this.callbackRequest(r),
        accept: billsReceiverAccepted,
      });
    }
  }

  private callbackRequest(r: TopupRecord): OutgoingRequest | string {
    const merchant = this.ctx.config.bills.merchants.find((m) => m.merchantId === r.merchantId);
    if (!merchant || !r.callBackUrl) return 'no callBackUrl given';
    const payload = {
      serviceType: r.serviceType,
      feeAmount: 0,
      orderAmount: r.amountKobo ?? 0,
      orderNo: r.orderNo,
      createTime: String(r.createdAt),
      merchantId: r.merchantId,
      orderStatus: r.status,
      currency: 'NGN',
      payChannel: this.ctx.config.bills.payChannel,
      merchantOrderNo: r.reference,
      errorMsg: r.errorMsg,
    };
    let sha512 = billsCallbackSignature(merchant.secretKey, payload);
    if (this.ctx.faults.decide('webhook:bills').action === 'tamperSign') {
      sha512 = tamperSignature(sha512);
      this.ctx.events.emit('fault', { path: 'webhook:bills', kind: 'tamperSign' });
    }
    return {
      url: r.callBackUrl,
      headers: {},
      body: JSON.stringify({ payload, sha512, type: this.ctx.config.bills.callbackType }),
    };
  }
}
