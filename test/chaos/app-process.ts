// The driver's handle on the app-under-test child (test/helpers/chaos-app.ts): start it, send it
// sales and cancels (answered once journaled), SIGKILL it at any moment, start it again, stop it cleanly.
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { OrderState, SaleInput } from '../../shared/orders';
import type { BasketSaleInput } from '../../shared/basket-sale';
import type { AppMessage, ChaosAppArgs, DriverMessage, OrderSnapshot } from '../helpers/chaos-protocol';

type ReadyMessage = Extract<AppMessage, { type: 'ready' }>;

const REPO = resolve(__dirname, '..', '..');
const CHILD = join(REPO, 'test', 'helpers', 'chaos-app.ts');
/** The Hub chaos run's counter (checkout + sync pusher + relay consumer, no webhook receiver). */
export const HUB_COUNTER_CHILD = join(REPO, 'test', 'helpers', 'hub-chaos-counter.ts');

export type SellResult =
  | { kind: 'acked'; id: number; outOrderNo: string }
  | { kind: 'refused'; code: string; message: string }
  /** The process died before answering: the sale counts as started only if it is in the journal. */
  | { kind: 'no-answer' };

export type CancelResult =
  | { kind: 'cancelled'; refundNos: string[] }
  | { kind: 'refused'; code: string; message: string }
  /** The process died before answering: the cancel happened only if the journal has it (all of it). */
  | { kind: 'no-answer' };

export type ExchangeResult =
  | { kind: 'exchanged'; newOrderId: number; newOutOrderNo: string; newState: OrderState; refundNos: string[] }
  | { kind: 'refused'; code: string; message: string }
  | { kind: 'no-answer' };

type Answer = SellResult | CancelResult | ExchangeResult;

export interface AppProcessEvents {
  order(o: OrderSnapshot): void;
  ready(webhookUrl: string, orders: OrderSnapshot[], m: ReadyMessage): void;
  /** Messages other children send besides the chaos app's (the Hub counter's reports). */
  other?(m: Exclude<AppMessage, { type: 'ready' | 'order' | 'ack' | 'refused' | 'cancelled' | 'exchanged' }>): void;
}

export class AppProcess<A extends ChaosAppArgs = ChaosAppArgs> {
  private child: ChildProcess | null = null;
  private exited: Promise<void> = Promise.resolve();
  private readonly pending = new Map<number, (r: Answer) => void>();
  private nextReq = 1;
  generation = 0;
  readonly stderr: string[] = [];

  constructor(
    private readonly args: A,
    private readonly dir: string,
    private readonly on: AppProcessEvents,
    /** The child script (default: the chaos app); `name` keeps several children's files apart in one dir. */
    private readonly script: { path: string; name: string } = { path: CHILD, name: 'app' },
  ) {}

  get alive(): boolean {
    return this.child !== null;
  }

  /** Starts a new process on the same journal; resolves with its webhook URL once it has resumed. */
  start(): Promise<string> {
    if (this.child) throw new Error('the app is already running');
    this.generation += 1;
    const argsFile = join(this.dir, `${this.script.name}-args-${this.generation}.json`);
    writeFileSync(argsFile, JSON.stringify({ ...this.args, seed: this.args.seed + this.generation } satisfies A));
    // Node itself (not the tsx CLI, which would put a wrapper process between us and the app).
    const child = spawn(process.execPath, ['--import', 'tsx', this.script.path, argsFile], {
      cwd: REPO,
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    this.child = child;
    child.stderr?.setEncoding('utf8').on('data', (d: string) => this.stderr.push(d));
    this.exited = new Promise((done) => {
      child.once('exit', () => {
        if (this.child === child) this.child = null;
        for (const [id, answer] of this.pending) {
          this.pending.delete(id);
          answer({ kind: 'no-answer' });
        }
        done();
      });
    });
    return new Promise((resolveStart, rejectStart) => {
      const onExit = (code: number | null) =>
        rejectStart(new Error(`the app exited while starting (code ${code}): ${this.stderr.join('').slice(-2000)}`));
      child.once('exit', onExit);
      child.on('message', (m: AppMessage) => {
        if (m.type === 'ready') {
          child.off('exit', onExit);
          this.on.ready(m.webhookUrl, m.orders, m);
          resolveStart(m.webhookUrl);
        } else if (m.type === 'order') {
          this.on.order({ id: m.id, outOrderNo: m.outOrderNo, state: m.state, late: m.late ?? null });
        } else if (m.type === 'ack' || m.type === 'refused' || m.type === 'cancelled' || m.type === 'exchanged') {
          const answer = this.pending.get(m.reqId);
          this.pending.delete(m.reqId);
          answer?.(
            m.type === 'ack'
              ? { kind: 'acked', id: m.id, outOrderNo: m.outOrderNo }
              : m.type === 'cancelled'
                ? { kind: 'cancelled', refundNos: m.refundNos }
                : m.type === 'exchanged'
                  ? {
                      kind: 'exchanged',
                      newOrderId: m.newOrderId,
                      newOutOrderNo: m.newOutOrderNo,
                      newState: m.newState,
                      refundNos: m.refundNos,
                    }
                  : { kind: 'refused', code: m.code, message: m.message },
          );
        } else {
          this.on.other?.(m);
        }
      });
    });
  }

  /** Sends a sale; the answer comes once it is journaled, or as no-answer if the process dies first. */
  sell(sale: SaleInput | BasketSaleInput): Promise<SellResult> {
    const child = this.child;
    if (!child) return Promise.resolve({ kind: 'no-answer' });
    const reqId = this.nextReq++;
    return new Promise((answer) => {
      this.pending.set(reqId, answer as (r: Answer) => void);
      this.send(child, { type: 'sell', reqId, sale });
    });
  }

  /** Asks for a cancel of seats of a paid sale; answered once journaled, or no-answer if the process dies first. */
  cancel(orderId: number, seats: string[]): Promise<CancelResult> {
    const child = this.child;
    if (!child) return Promise.resolve({ kind: 'no-answer' });
    const reqId = this.nextReq++;
    return new Promise((answer) => {
      this.pending.set(reqId, answer as (r: Answer) => void);
      this.send(child, { type: 'cancel', reqId, orderId, seats });
    });
  }

  /** Asks for an exchange of seats of a paid sale; answered once the new sale is journaled, or no-answer. */
  exchange(m: Omit<Extract<DriverMessage, { type: 'exchange' }>, 'type' | 'reqId'>): Promise<ExchangeResult> {
    const child = this.child;
    if (!child) return Promise.resolve({ kind: 'no-answer' });
    const reqId = this.nextReq++;
    return new Promise((answer) => {
      this.pending.set(reqId, answer as (r: Answer) => void);
      this.send(child, { type: 'exchange', reqId, ...m });
    });
  }

  /** SIGKILL: no chance to finish anything. Resolves once the process is gone. */
  async kill(): Promise<void> {
    this.child?.kill('SIGKILL');
    await this.exited;
  }

  /** Sends a message the child answers through `other` (the Hub counter's quiesce). */
  post(m: DriverMessage): void {
    if (this.child) this.send(this.child, m);
  }

  /** Asks the app to finish its calls and close the journal; kills it if it takes too long. */
  async stop(timeoutMs = 15_000): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.send(child, { type: 'stop' });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    await this.exited;
    clearTimeout(timer);
  }

  private send(child: ChildProcess, m: DriverMessage): void {
    // A closed channel (the process just died) is reported here, not thrown: the exit handler
    // answers the pending sale.
    if (!child.connected) return;
    child.send(m, () => {});
  }
}
