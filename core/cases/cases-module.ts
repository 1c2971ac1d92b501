// The complaint desk ("I was debited", docs/refunds.md): its share of the contract. The search and
// the provider's truth are the desk's (case-desk.ts), the cases the store's (case-store.ts); a case
// resolved with the tickets given (or a refund owed) about a payment taken after closing marks that
// late outcome handled the way the alert does; the slip prints through the records' print jobs.
import { CASE_RESOLUTION_LABELS, CASE_TRUTH_LABELS, type CaseView } from '../../shared/cases';
import type { caseCalls } from '../../shared/contract-cases';
import { counterCode } from '../../shared/counter-code';
import { AppError } from '../../shared/errors';
import { formatNaira } from '../../shared/money';
import type { MarkLateHandled } from '../../shared/late-payments';
import type { OrderView } from '../../shared/orders';
import { isDemoRecord, type RecordProfile } from '../../shared/record-profile';
import type { PrintJobView } from '../../shared/records';
import type { CaseSlip } from '../../shared/cases';
import { formatLagosTime } from '../../shared/time';
import type { CoreModule } from '../core-module';
import type { CoreServices } from '../core-services';
import type { JournalSink } from '../journal-sink';
import type { PosClient } from '../provider';
import { createCaseDesk, type CaseDeskDeps } from './case-desk';
import { CaseStore } from './case-store';

type CasesContext = Pick<CoreServices, 'db' | 'settings' | 'events' | 'logger' | 'clock'> & {
  journalSink: JournalSink;
  checkout: CaseDeskDeps['checkout'] & {
    markLateHandled(id: number, h: Omit<MarkLateHandled, 'id'>): OrderView;
  };
  pos: PosClient;
};

interface CasesModuleDeps {
  createdBetween: CaseDeskDeps['createdBetween'];
  branch: CaseDeskDeps['branch'];
  /** The records module's case slip (through the print jobs). */
  printSlip: (slip: Omit<CaseSlip, 'cinemaName' | 'counterName'>) => Promise<PrintJobView>;
}

/** What the slip says was found. */
export function foundLines(c: CaseView): string[] {
  if (!c.outOrderNo) return ['No payment found yet: we are checking with the bank and the provider.'];
  const lines = [
    `Sale ${c.outOrderNo}${c.search.amountKobo !== undefined ? `, ${formatNaira(c.search.amountKobo)}` : ''}`,
  ];
  if (c.truth) lines.push(CASE_TRUTH_LABELS[c.truth]);
  if (c.proof) lines.push(`Provider: ${c.proof.providerStatus} at ${formatLagosTime(c.proof.askedAt)}`);
  if (c.resolution) lines.push(`Resolved: ${CASE_RESOLUTION_LABELS[c.resolution]}`);
  return lines;
}

export function createCasesModule(ctx: CasesContext, deps: CasesModuleDeps) {
  const now = () => ctx.clock.now();
  const counterName = () => ctx.settings.profile(ctx.settings.activeProfile()).counterName;
  const store = new CaseStore(ctx.db, ctx.journalSink);
  const desk = createCaseDesk({
    createdBetween: deps.createdBetween,
    checkout: ctx.checkout,
    pos: () => ctx.pos,
    branch: deps.branch,
    counterName,
    now,
    logger: ctx.logger,
  });
  const changed = () => ctx.events.emit('cases.changed', { open: store.countOpen() });
  const caseOf = (id: number): CaseView => {
    const c = store.get(id);
    if (!c) throw new AppError('NOT_FOUND', `There is no case ${id} on this counter.`, { id });
    return c;
  };

  const mod: CoreModule<typeof caseCalls> = {
    handlers: {
      'cases.search': (a) => desk.search(a),
      'cases.check': (a) => desk.check(a.outOrderNo),
      'cases.open': (a) => {
        const ref = a.outOrderNo?.trim() || null;
        if (ref) {
          const already = store.openFor(ref);
          if (already) return already;
        }
        const checked = ref ? desk.lastCheck(ref) : null;
        const own = ref ? ctx.checkout.getByOutOrderNo(ref) : null;
        const c = store.open({
          search: a.search,
          customer: a.customer,
          openedBy: a.openedBy,
          found: ref
            ? {
                orderId: own?.id ?? null,
                outOrderNo: ref,
                amountKobo: own?.amountKobo ?? checked?.candidate.amountKobo ?? a.search.amountKobo ?? 0,
                truth: checked?.truth ?? null,
                providerStatus: checked?.providerStatus ?? null,
                askedAt: checked?.providerStatus ? checked.askedAt : null,
              }
            : null,
          at: now(),
          code: counterCode(counterName()),
          profile: ctx.settings.activeProfile() as RecordProfile,
        });
        ctx.logger.info('complaint case opened', { caseNo: c.caseNo, outOrderNo: ref, truth: c.truth });
        changed();
        return c;
      },
      'cases.resolve': (a) => {
        const c = store.resolve(a.id, { resolution: a.resolution, by: a.by, note: a.note }, now());
        // The payment taken after closing this case is about is settled with it, as the alert's buttons do.
        const late = c.orderId !== null ? ctx.checkout.get(c.orderId)?.late : undefined;
        if (
          c.orderId !== null &&
          late?.kind === 'paid-after-closing' &&
          !late.handled &&
          a.resolution !== 'not-debited'
        )
          ctx.checkout.markLateHandled(c.orderId, {
            how: a.resolution === 'tickets-given' ? 'tickets-given' : 'refund',
            by: a.by,
            note: `Case ${c.caseNo}`,
          });
        ctx.logger.info('complaint case resolved', { caseNo: c.caseNo, resolution: c.resolution });
        changed();
        return c;
      },
      'cases.list': () => ({ open: store.countOpen(), items: store.list() }),
      'cases.printSlip': (a) => {
        const c = caseOf(a.id);
        return deps.printSlip({
          caseNo: c.caseNo,
          openedAt: c.openedAt,
          openedBy: c.openedBy,
          found: foundLines(c),
          demo: isDemoRecord(ctx.settings.activeProfile()),
        });
      },
    },
  };
  return mod;
}
