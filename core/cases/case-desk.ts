// The complaint desk's two questions (docs/refunds.md, "The complaint desk"): which sales fit what
// the customer says (this counter's journal, and the branch's through the Hub), and what the
// provider says about one of them, in one line. A sale of this counter is checked the way "Check
// with the provider" checks it (orders.checkNow: one qryOrderDetail, its answer kept as the order's
// lastCheck; a payment taken after closing is recorded as its late outcome, as the sweep would);
// another counter's sale is asked of the provider by its number.
import { soldBasketOf } from '../../shared/basket-sale';
import {
  CASE_MAX_CANDIDATES,
  CASE_TRUTH_LABELS,
  caseTruthOf,
  complaintWindow,
  fitsComplaint,
  type ComplaintSearchSchema,
} from '../../shared/cases';
import type { CaseCandidate, CaseCheck } from '../../shared/contract-cases';
import { isAppError } from '../../shared/errors';
import type { HubCaseSale, HubCaseSearch } from '../../shared/hub-cases-contract';
import type { Logger } from '../../shared/logger';
import type { OrderView } from '../../shared/orders';
import { formatLagosTime } from '../../shared/time';
import type { z } from 'zod';
import type { PosClient } from '../provider';

type Search = z.output<typeof ComplaintSearchSchema>;

/** How many of this counter's sales in the window are looked at, at most (newest first). */
const SCAN_MAX = 5_000;
/** The checks kept for Open case (the last ones asked). */
const CHECKS_KEPT = 200;

export interface CaseDeskDeps {
  /** This counter's orders created in a window, newest first (OrderJournalReads.createdBetween). */
  createdBetween: (from: number, to: number, limit: number) => number[];
  checkout: {
    get(id: number): OrderView | null;
    getByOutOrderNo(outOrderNo: string): OrderView | null;
    /** "Check with the provider" (orders.checkNow). */
    checkNow(id: number): Promise<OrderView>;
  };
  pos: () => PosClient;
  /** The branch's sales through the Hub; null without a Hub. Throws when the Hub cannot be asked. */
  branch: () => ((q: HubCaseSearch) => Promise<HubCaseSale[]>) | null;
  counterName: () => string;
  now: () => number;
  logger: Logger;
}

/** A sale of this counter as the desk shows it (null: a cash sale, nothing was taken by card). */
export function candidateOf(v: OrderView, counterName: string): CaseCandidate | null {
  const basket = soldBasketOf(v);
  if (basket.tender.kind === 'cash') return null;
  const account = v.late?.senderAccount ?? v.senderAccount;
  return {
    orderId: v.id,
    outOrderNo: v.outOrderNo,
    where: 'this-counter',
    counterName,
    sn: v.sn,
    amountKobo: v.amountKobo,
    createdAt: v.createdAt,
    filmTitle: v.sale.filmTitle,
    seats: v.sale.seats,
    ...(account ? { senderAccount: account } : {}),
    state: v.late?.kind === 'paid-after-closing' ? 'paid-after-closing' : v.state,
  };
}

/** This counter's sales that fit the complaint, newest first. */
export function searchJournal(
  d: Pick<CaseDeskDeps, 'createdBetween' | 'checkout'>,
  s: Search,
  now: number,
  name: string,
) {
  const w = complaintWindow(s, now);
  const out: CaseCandidate[] = [];
  for (const id of d.createdBetween(w.from, w.to, SCAN_MAX)) {
    const v = d.checkout.get(id);
    if (!v) continue;
    const basket = soldBasketOf(v);
    const facts = {
      createdAt: v.createdAt,
      amountKobo: v.amountKobo,
      totalKobo: basket.amounts.totalKobo,
      sn: v.sn,
      senderAccount: v.late?.senderAccount ?? v.senderAccount,
    };
    if (!fitsComplaint(facts, s, now)) continue;
    const c = candidateOf(v, name);
    if (c) out.push(c);
    if (out.length >= CASE_MAX_CANDIDATES) break;
  }
  return out;
}

export function createCaseDesk(d: CaseDeskDeps) {
  const checks = new Map<string, CaseCheck>();
  const branchFound = new Map<string, CaseCandidate>();
  const keep = <V>(m: Map<string, V>, k: string, v: V) => {
    m.delete(k);
    m.set(k, v);
    if (m.size > CHECKS_KEPT) m.delete(m.keys().next().value!);
  };

  async function searchBranch(s: Search, now: number, own: Set<string>): Promise<CaseCandidate[] | null> {
    const ask = d.branch();
    // The Hub keeps no cards nor terminals: it is asked only about an amount.
    if (!ask || s.amountKobo === undefined) return null;
    const w = complaintWindow(s, now);
    try {
      const sales = await ask({ amountKobo: s.amountKobo, from: w.from, to: w.to });
      return sales
        .filter((x) => !own.has(x.reference))
        .map((x) => {
          const c: CaseCandidate = {
            orderId: null,
            outOrderNo: x.reference,
            where: 'branch',
            counterName: x.counterName,
            sn: '',
            amountKobo: x.amountKobo,
            createdAt: x.createdAt,
            filmTitle: x.filmTitle,
            seats: x.seats,
            state: x.state,
          };
          keep(branchFound, c.outOrderNo, c);
          return c;
        });
    } catch (e) {
      d.logger.warn('complaint desk: the Hub could not be asked about the branch', {
        error: e instanceof Error ? e.message : String(e),
      });
      return null;
    }
  }

  return {
    async search(s: Search): Promise<{ candidates: CaseCandidate[]; searchedBranch: boolean }> {
      const now = d.now();
      const mine = searchJournal(d, s, now, d.counterName());
      const branch = await searchBranch(s, now, new Set(mine.map((c) => c.outOrderNo)));
      const candidates = [...mine, ...(branch ?? [])].sort((a, b) => b.createdAt - a.createdAt);
      return { candidates, searchedBranch: branch !== null };
    },

    /** Asks the provider about one sale; the truth in one line, with the provider's word and time as proof. */
    async check(outOrderNo: string): Promise<CaseCheck> {
      const own = d.checkout.getByOutOrderNo(outOrderNo);
      let candidate = own ? candidateOf(own, d.counterName()) : (branchFound.get(outOrderNo) ?? null);
      let providerStatus: string | null = null;
      let askedAt = d.now();
      let state: string | null = candidate?.state ?? null;
      let lateFound = false;
      let why = '';
      try {
        if (own?.state === 'queued') {
          providerStatus = 'NOT_SENT'; // it never reached the terminal: nothing can have been taken
        } else if (own) {
          const after = await d.checkout.checkNow(own.id);
          providerStatus = after.lastCheck?.providerStatus ?? after.providerStatus ?? null;
          askedAt = after.lastCheck?.at ?? d.now();
          state = after.state;
          lateFound = after.late?.kind === 'paid-after-closing';
          candidate = candidateOf(after, d.counterName()) ?? candidate;
        } else {
          const details = await d.pos().queryOrder({ outOrderNo });
          askedAt = d.now();
          providerStatus = details ? String(details.status ?? 'UNKNOWN') : 'NOT_FOUND';
        }
      } catch (e) {
        why = isAppError(e) ? e.message : e instanceof Error ? e.message : String(e);
        d.logger.warn('complaint desk: the provider could not be asked', { outOrderNo, error: why });
      }
      const truth = caseTruthOf(providerStatus, { state, paidAfterClosing: lateFound });
      const proof =
        providerStatus === null
          ? why.replace(/\.$/, '')
          : `the provider says ${providerStatus === 'NOT_FOUND' ? 'it has no such order' : providerStatus} at ${formatLagosTime(askedAt)}`;
      const result: CaseCheck = {
        candidate: candidate ?? {
          orderId: null,
          outOrderNo,
          where: 'branch',
          counterName: '',
          sn: '',
          amountKobo: 0,
          createdAt: askedAt,
          filmTitle: '',
          seats: '',
          state: state ?? 'unknown',
        },
        truth,
        line: `${CASE_TRUTH_LABELS[truth]} (${proof}).`,
        providerStatus,
        askedAt,
      };
      keep(checks, outOrderNo, result);
      return result;
    },

    /** The last check of a sale, if the desk made one (Open case keeps its truth and proof). */
    lastCheck: (outOrderNo: string): CaseCheck | null => checks.get(outOrderNo) ?? null,
  };
}

export type CaseDesk = ReturnType<typeof createCaseDesk>;
