// "Check all customers" for a draft batch: each distinct betting customer is validated once, at a
// gentle rate; rows whose customer the provider does not know are taken out (not sent) and listed
// with the file's errors; customers that could not be checked stay in.
import { isAppError } from '../../shared/errors';
import type { RowError } from '../../shared/topups';
import type { Logger } from '../../shared/logger';
import type { Timers } from '../lib';
import { TokenBucket } from '../../shared/token-bucket';
import type { BillsClient } from '../provider';
import type { TopupJournal } from './topup-journal';
import type { BatchRecord, Move, TopupRecord } from './topup-rows';

interface CustomerCheckDeps {
  journal: TopupJournal;
  bills: () => BillsClient;
  now: () => number;
  timers: Timers;
  logger: Logger;
  ratePerSecond: number;
  apply: (moves: Move[]) => TopupRecord[];
  onBatch: (batchId: number) => void;
}

export function fullName(c: { firstName: string; lastName: string; userName: string }): string {
  const name = `${c.firstName} ${c.lastName}`.trim();
  return c.userName ? `${name || c.userName} (${c.userName})` : name;
}

/** Runs the check of one batch to the end; `cancelled()` stops it between customers. */
export async function checkBatchCustomers(
  d: CustomerCheckDeps,
  batchId: number,
  cancelled: () => boolean,
): Promise<void> {
  const items = d.journal.draftBetting(batchId);
  const groups = new Map<string, TopupRecord[]>();
  for (const it of items) {
    const key = `${it.provider}\u0000${it.customerId}`;
    const g = groups.get(key);
    if (g) g.push(it);
    else groups.set(key, [it]);
  }
  const check: BatchRecord['check'] = { state: 'running', checked: 0, total: groups.size, notFound: 0, unchecked: 0 };
  d.journal.setBatch(batchId, { check: { ...check } });
  d.onBatch(batchId);
  const bucket = new TokenBucket({ ratePerSec: d.ratePerSecond, burst: 1, now: d.now });
  let lastReport = 0;

  for (const group of groups.values()) {
    if (cancelled()) break;
    for (let wait = bucket.take(); wait > 0; wait = bucket.take())
      await new Promise<void>((r) => d.timers.setTimeout(r, wait));
    const first = group[0]!;
    try {
      const c = await d.bills().validate({ provider: first.provider, customerId: first.customerId });
      d.apply(
        group.map((it) => ({
          id: it.id,
          to: 'draft' as const,
          from: ['draft'] as const,
          note: 'Customer checked',
          patch: { customerName: fullName(c) },
        })),
      );
    } catch (err) {
      if (isAppError(err) && err.code === 'PROVIDER_REFUSED') {
        const said = typeof err.details?.providerMessage === 'string' ? err.details.providerMessage : err.message;
        const message = `${first.provider} does not know the customer ${first.customerId} (${said}): this row will not be sent`;
        check.notFound += group.length;
        d.apply(
          group.map((it) => ({
            id: it.id,
            to: 'not_sent' as const,
            from: ['draft'] as const,
            note: 'Customer check: not found',
            patch: { errorMsg: `Not sent: ${message}` },
          })),
        );
        const errors: RowError[] = group.map((it) => ({ line: it.line ?? 0, column: 'customerId', message }));
        d.journal.addRowErrors(batchId, errors);
      } else {
        check.unchecked += group.length;
        d.logger.warn('customer check failed for one customer; the row stays in the batch', {
          batchId,
          code: isAppError(err) ? err.code : 'INTERNAL',
        });
      }
    }
    check.checked += 1;
    if (d.now() - lastReport >= 250) {
      lastReport = d.now();
      d.journal.setBatch(batchId, { check: { ...check } });
      d.onBatch(batchId);
    }
  }
  d.journal.setBatch(batchId, { check: { ...check, state: 'done' } });
  d.onBatch(batchId);
}
