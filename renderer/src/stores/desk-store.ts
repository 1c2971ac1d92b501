// The complaint desk ("Debited?"): what the customer says (last four, amount, when, terminal), the
// candidates found, the provider's truth about the one checked, and the case opened for it. Main
// owns the rules and the cases (core/cases); `cases.changed` brings a change of the open count.
import { create } from 'zustand';
import type { CaseResolution, CaseView, ComplaintSearch } from '../../../shared/cases';
import type { CaseCandidate, CaseCheck } from '../../../shared/contract-cases';
import { parseNaira } from '../../../shared/money';
import { lagosDate, lagosInstant, DAY_MS } from '../../../shared/time';
import { call } from '../transport/bridge';
import { errorText } from './call-errors';
import type { StoreFollower } from './follow';

export interface DeskForm {
  last4: string;
  amount: string;
  /** HH:mm (Lagos), roughly when; '' for any time in the last 72 hours. */
  when: string;
  sn: string;
}

type FieldKey = keyof DeskForm;
type Busy = 'search' | 'check' | 'open' | 'print' | 'resolve' | null;

interface DeskState {
  form: DeskForm;
  errors: Partial<Record<FieldKey, string>>;
  name: string;
  busy: Busy;
  message: { kind: 'ok' | 'error'; text: string } | null;
  /** null: not searched yet. */
  candidates: CaseCandidate[] | null;
  searchedBranch: boolean;
  selected: number;
  check: CaseCheck | null;
  /** The case opened (or found open) for the sale checked. */
  current: CaseView | null;
  cases: { open: number; items: CaseView[] } | null;
  setField(k: FieldKey, v: string): void;
  setName(v: string): void;
  search(): Promise<boolean>;
  move(delta: number): void;
  select(i: number): void;
  checkSelected(): Promise<void>;
  openCase(): Promise<void>;
  printSlip(): Promise<void>;
  resolve(r: CaseResolution): Promise<void>;
  loadCases(): Promise<void>;
}

const EMPTY: DeskForm = { last4: '', amount: '', when: '', sn: '' };

/** "19:40" today in Lagos (yesterday's when that is still to come), as ms; null when not a time. */
export function aroundOf(when: string, now: number): number | null {
  const m = /^([01]?\d|2[0-3]):?([0-5]\d)$/.exec(when.trim());
  if (!m) return null;
  const at = lagosInstant(lagosDate(now), `${m[1]!.padStart(2, '0')}:${m[2]}`);
  return at > now ? at - DAY_MS : at;
}

/** The form as the engine's search reads it, or the fields to fix. */
export function searchOf(
  f: DeskForm,
  now: number,
): { ok: true; search: ComplaintSearch } | { ok: false; errors: Partial<Record<FieldKey, string>> } {
  const errors: Partial<Record<FieldKey, string>> = {};
  const search: ComplaintSearch = {};
  if (f.last4.trim()) {
    if (/^\d{4}$/.test(f.last4.trim())) search.last4 = f.last4.trim();
    else errors.last4 = "The card's last four digits are four digits";
  }
  if (f.amount.trim()) {
    try {
      const kobo = parseNaira(f.amount);
      if (kobo > 0) search.amountKobo = kobo;
      else errors.amount = 'Enter the amount in naira, for example 4,000';
    } catch {
      errors.amount = 'Enter the amount in naira, for example 4,000';
    }
  }
  if (f.when.trim()) {
    const around = aroundOf(f.when, now);
    if (around === null) errors.when = 'Write the time as HH:mm, for example 19:40';
    else search.around = around;
  }
  if (f.sn.trim()) search.sn = f.sn.trim();
  if (!errors.last4 && !errors.amount && search.last4 === undefined && search.amountKobo === undefined)
    errors.amount = "Enter the amount or the card's last four digits";
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, search };
}

export const useDesk = create<DeskState>((set, get) => {
  async function run<T>(busy: Busy, fn: () => Promise<T>): Promise<T | undefined> {
    set({ busy, message: null });
    try {
      return await fn();
    } catch (e) {
      set({ message: { kind: 'error', text: errorText(e) } });
      return undefined;
    } finally {
      set({ busy: null });
    }
  }
  const searchNow = (): ComplaintSearch | null => {
    const r = searchOf(get().form, Date.now());
    if (!r.ok) {
      set({ errors: r.errors });
      return null;
    }
    return r.search;
  };
  return {
    form: EMPTY,
    errors: {},
    name: '',
    busy: null,
    message: null,
    candidates: null,
    searchedBranch: false,
    selected: 0,
    check: null,
    current: null,
    cases: null,
    setField: (k, v) => set((s) => ({ form: { ...s.form, [k]: v }, errors: { ...s.errors, [k]: undefined } })),
    setName: (v) => set({ name: v }),
    search: async () => {
      const search = searchNow();
      if (!search) return false;
      set({ errors: {}, check: null, current: null });
      const r = await run('search', () => call('cases.search', search));
      if (!r) return false;
      set({ candidates: r.candidates, searchedBranch: r.searchedBranch, selected: 0 });
      return true;
    },
    move: (delta) =>
      set((s) => {
        const n = s.candidates?.length ?? 0;
        return n ? { selected: Math.min(n - 1, Math.max(0, s.selected + delta)) } : {};
      }),
    select: (i) => set({ selected: i }),
    checkSelected: async () => {
      const c = get().candidates?.[get().selected];
      if (!c) return;
      set({ check: null, current: null });
      const r = await run('check', () => call('cases.check', { outOrderNo: c.outOrderNo }));
      // The list shows what the check learnt of the sale (its card, paid after closing).
      if (r)
        set((s) => ({
          check: r,
          candidates: s.candidates?.map((x) => (x.outOrderNo === r.candidate.outOrderNo ? r.candidate : x)) ?? null,
        }));
    },
    openCase: async () => {
      const s = get();
      if (!s.name.trim()) {
        set({ message: { kind: 'error', text: 'Enter your name: who opens the case' } });
        return;
      }
      const search = searchNow();
      if (!search) return;
      const c = await run('open', () =>
        call('cases.open', {
          search,
          customer: '',
          openedBy: s.name.trim(),
          ...(s.check ? { outOrderNo: s.check.candidate.outOrderNo } : {}),
        }),
      );
      if (!c) return;
      set({ current: c, message: { kind: 'ok', text: `Case ${c.caseNo} opened: print the slip for the customer.` } });
      void get().loadCases();
    },
    printSlip: async () => {
      const c = get().current;
      if (!c) return;
      const job = await run('print', () => call('cases.printSlip', { id: c.id }));
      if (!job) return;
      set({
        message:
          job.status === 'failed'
            ? { kind: 'error', text: `The slip did not print: ${job.error ?? 'the printer failed'}` }
            : { kind: 'ok', text: `Slip for case ${c.caseNo} printed.` },
      });
    },
    resolve: async (resolution) => {
      const s = get();
      const c = s.current;
      if (!c) return;
      if (!s.name.trim()) {
        set({ message: { kind: 'error', text: 'Enter your name: who resolves the case' } });
        return;
      }
      const done = await run('resolve', () => call('cases.resolve', { id: c.id, resolution, by: s.name.trim() }));
      if (!done) return;
      set({ current: done, message: { kind: 'ok', text: `Case ${done.caseNo} closed.` } });
      void get().loadCases();
    },
    loadCases: async () => {
      try {
        set({ cases: await call('cases.list', {}) });
      } catch {
        /* read again at the next change or reconnect */
      }
    },
  };
});

export const deskFollower: StoreFollower = {
  name: 'desk',
  listen: (bridge) => [bridge.on('cases.changed', () => void useDesk.getState().loadCases())],
  refresh: () => (useDesk.getState().cases ? useDesk.getState().loadCases() : undefined),
};
