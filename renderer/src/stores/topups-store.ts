// The Top-ups screen's state for single top-ups: the tab, the betting providers (cached by main),
// the form with its customer check, the top-up on show and today's list, kept live from events.
import { create } from 'zustand';
import {
  networkFromPrefix,
  type ProvidersView,
  type ServiceType,
  type TopupView,
  type ValidatedCustomer,
} from '../../../shared/topups';
import { checkSingle, emptySingle, formFieldOf, newerTopup, type SingleDraft, type SingleField } from './topup-form';
import { call } from '../transport/bridge';
import { errorText, fieldErrorsOf } from './call-errors';
import type { StoreFollower } from './follow';

export type TopupsTab = 'single' | 'batch';

interface TopupsState {
  tab: TopupsTab;
  providers: ProvidersView | null;
  providersBusy: boolean;

  draft: SingleDraft;
  /** The cashier chose the network: the phone number's prefix no longer changes it (a ported number). */
  networkByHand: boolean;
  touched: Partial<Record<SingleField, true>>;
  submitted: boolean;
  serverErrors: Partial<Record<SingleField, string>>;
  message: string | null;
  busy: boolean;

  /** The betting customer as the provider confirmed it, for the id and provider typed now. */
  customer: ValidatedCustomer | null;
  checking: boolean;

  /** The top-up on show (after Pay), kept live. */
  current: TopupView | null;
  recent: TopupView[];
  checkBusy: boolean;

  setTab(tab: TopupsTab): void;
  load(): Promise<void>;
  refreshProviders(): Promise<void>;
  setService(t: ServiceType): void;
  edit<K extends keyof SingleDraft>(key: K, value: SingleDraft[K]): void;
  touch(key: SingleField): void;
  checkCustomer(): Promise<SingleField | null>;
  /** Checks and sends; resolves to the first field to fix (or null). */
  submit(): Promise<SingleField | null>;
  show(v: TopupView): void;
  newTopup(): void;
  checkNow(): Promise<void>;
  apply(v: TopupView): void;
}

type TopupsSet = (partial: Partial<TopupsState>) => void;
type TopupsGet = () => TopupsState;

const FIELD_ORDER: SingleField[] = ['network', 'provider', 'phone', 'customerId', 'amount'];

export const useTopups = create<TopupsState>((set, get) => ({
  tab: 'single',
  providers: null,
  providersBusy: false,
  draft: emptySingle(),
  networkByHand: false,
  touched: {},
  submitted: false,
  serverErrors: {},
  message: null,
  busy: false,
  customer: null,
  checking: false,
  current: null,
  recent: [],
  checkBusy: false,

  setTab: (tab) => set({ tab }),

  load: async () => {
    try {
      const [providers, recent] = await Promise.all([call('topups.providers', {}), call('topups.recent', {})]);
      set({ providers, recent });
      // A counter that never loaded the list fetches it once by itself.
      if (providers.fetchedAt === null) await get().refreshProviders();
    } catch (e) {
      set({ message: errorText(e) });
    }
  },

  refreshProviders: async () => {
    set({ providersBusy: true });
    try {
      set({ providers: await call('topups.providers', { refresh: true }) });
    } catch (e) {
      set({ message: errorText(e) });
    } finally {
      set({ providersBusy: false });
    }
  },

  setService: (serviceType) => {
    const d = get().draft;
    if (d.serviceType === serviceType) return;
    set({
      draft: { ...d, serviceType, amount: '' },
      touched: {},
      submitted: false,
      serverErrors: {},
      message: null,
      customer: null,
    });
  },

  edit: (key, value) => {
    const d = { ...get().draft, [key]: value };
    // The number's prefix picks the network (0803 → MTN) until the cashier picks one by hand.
    if (key === 'network') set({ networkByHand: true });
    if (key === 'phone' && d.serviceType === 'airtime' && !get().networkByHand) {
      const guess = networkFromPrefix(value);
      if (guess) d.network = guess;
    }
    const field = key === 'serviceType' ? null : (key as SingleField);
    const serverErrors = { ...get().serverErrors };
    if (field) delete serverErrors[field];
    // A customer check holds for the id and provider it was made for.
    const c = get().customer;
    const customer = c && c.provider === d.provider && c.customerId === d.customerId.trim() ? c : null;
    if (!customer) delete serverErrors.customerId;
    set({ draft: d, serverErrors, customer, message: null });
  },

  touch: (key) => set({ touched: { ...get().touched, [key]: true } }),

  checkCustomer: () => checkCustomerOf(set, get),

  submit: () => submitOf(set, get),

  show: (v) => {
    const current = newerTopup(get().current?.id === v.id ? get().current : null, v);
    set({ current });
    get().apply(current);
  },

  newTopup: () => {
    const d = get().draft;
    // The service and network stay: the next customer often wants the same.
    set({
      current: null,
      draft: { ...emptySingle(d.serviceType), network: d.network, provider: d.provider },
      networkByHand: false,
      touched: {},
      submitted: false,
      serverErrors: {},
      message: null,
      customer: null,
    });
  },

  checkNow: async () => {
    const c = get().current;
    if (!c) return;
    set({ checkBusy: true });
    try {
      get().apply(await call('topups.checkNow', { id: c.id }));
    } catch (e) {
      set({ message: errorText(e) });
    } finally {
      set({ checkBusy: false });
    }
  },

  apply: (v) => {
    if (v.batchId !== null) return;
    const { current, recent } = get();
    const i = recent.findIndex((r) => r.id === v.id);
    const next = i < 0 ? [v, ...recent].slice(0, 30) : recent.map((r) => (r.id === v.id ? newerTopup(r, v) : r));
    set({ recent: next, ...(current?.id === v.id ? { current: newerTopup(current, v) } : {}) });
  },
}));

/** The betting customer checked with the provider; resolves to the field to fix (or null). */
async function checkCustomerOf(set: TopupsSet, get: TopupsGet): Promise<SingleField | null> {
  const { draft, providers } = get();
  const check = checkSingle(draft, providers?.providers ?? []);
  const problem = (['provider', 'customerId'] as const).find((k) => check.errors[k]);
  if (problem) {
    set({ touched: { ...get().touched, provider: true, customerId: true } });
    return problem;
  }
  set({ checking: true, message: null, customer: null });
  try {
    const customer = await call('topups.checkCustomer', { provider: draft.provider, customerId: draft.customerId });
    const now = get().draft;
    if (now.provider === draft.provider && now.customerId === draft.customerId) set({ customer });
    return null;
  } catch (e) {
    const fields = fieldErrorsOf(e);
    if (Object.keys(fields).length) {
      set({ serverErrors: { ...get().serverErrors, ...mapFields(fields, 'betting') } });
      return 'customerId';
    }
    set({ message: errorText(e) });
    return null;
  } finally {
    set({ checking: false });
  }
}

/** Checks and sends; resolves to the first field to fix (or null). */
async function submitOf(set: TopupsSet, get: TopupsGet): Promise<SingleField | null> {
  const { draft, providers, busy } = get();
  if (busy) return null;
  const check = checkSingle(draft, providers?.providers ?? []);
  set({ submitted: true, message: null });
  const first = FIELD_ORDER.find((k) => check.errors[k]);
  if (first) return first;
  set({ busy: true });
  try {
    const v = await call('topups.submit', {
      serviceType: draft.serviceType,
      provider: draft.serviceType === 'airtime' ? draft.network : draft.provider,
      customerId: draft.serviceType === 'airtime' ? draft.phone : draft.customerId,
      amount: draft.amount,
    });
    get().show(v);
    return null;
  } catch (e) {
    const fields = mapFields(fieldErrorsOf(e), draft.serviceType);
    if (Object.keys(fields).length) {
      set({ serverErrors: fields, message: 'Nothing was sent: fix the fields marked below.' });
      return FIELD_ORDER.find((k) => fields[k]) ?? null;
    }
    set({ message: `Nothing was sent. ${errorText(e)}` });
    return null;
  } finally {
    set({ busy: false });
  }
}

function mapFields(fields: Record<string, string>, t: ServiceType): Partial<Record<SingleField, string>> {
  const out: Partial<Record<SingleField, string>> = {};
  for (const [k, m] of Object.entries(fields)) {
    const f = formFieldOf(k, t);
    if (f) out[f] ??= m;
  }
  return out;
}

/** Main owns the truth: follow its events. */
export const topupsFollower: StoreFollower = {
  name: 'topups',
  listen: (bridge) => [
    bridge.on('topups.changed', (v) => useTopups.getState().apply(v)),
    bridge.on('topups.providersChanged', (p) => useTopups.setState({ providers: p })),
  ],
  refresh: async () => {
    const s = useTopups.getState();
    const current = s.current;
    await Promise.all([
      s.providers ? s.load() : null,
      current ? call('topups.get', { id: current.id }).then((v) => useTopups.getState().apply(v)) : null,
    ]);
  },
};
