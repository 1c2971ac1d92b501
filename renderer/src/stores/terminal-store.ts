// The counter's terminal as the Sell screen shows it: settings and live link state from main,
// the serial ports on offer, and (Demo profile only) the simulated terminal's screen.
import { create } from 'zustand';
import type { DemoOutcome, DemoTerminalScreen as DemoScreen } from '../../../shared/contract';
import type { SerialPortInfo, TerminalSettings, TerminalState } from '../../../shared/terminal';
import { call } from '../transport/bridge';
import { isAppError } from '../../../shared/errors';
import type { StoreFollower } from './follow';
import { pushGuard } from './push-guard';
import { errorText, fieldErrorsOf } from './call-errors';

export type { DemoOutcome, DemoTerminalScreen as DemoScreen } from '../../../shared/contract';

interface TerminalStore {
  settings: TerminalSettings | null;
  state: TerminalState | null;
  loadError: string | null;
  ports: SerialPortInfo[] | null;
  portsBusy: boolean;
  portsError: string | null;
  saving: boolean;
  saveError: string | null;
  fieldErrors: Record<string, string>;
  /** The last change needs the admin PIN: 'required' (Settings locked) or 'not-set' (none chosen yet). */
  needsPin: 'required' | 'not-set' | null;
  pinError: string | null;

  demo: DemoScreen | null;
  demoError: string | null;
  demoBusy: DemoOutcome | null;

  load(): Promise<void>;
  listPorts(): Promise<void>;
  /** Sends the full settings object with the changes; resolves true when main accepted it. */
  configure(change: Partial<TerminalSettings>): Promise<boolean>;
  /** Unlocks Settings with the admin PIN (for a port change); resolves true when it opened. */
  unlock(pin: string): Promise<boolean>;
  loadDemo(): Promise<void>;
  present(outcome: DemoOutcome): Promise<void>;
}

/** A read answered after a push of the same state keeps the push (see push-guard.ts). */
const pushes = { state: pushGuard(), demo: pushGuard() };

export const useTerminal = create<TerminalStore>((set, get) => ({
  settings: null,
  state: null,
  loadError: null,
  ports: null,
  portsBusy: false,
  portsError: null,
  saving: false,
  saveError: null,
  fieldErrors: {},
  needsPin: null,
  pinError: null,
  demo: null,
  demoError: null,
  demoBusy: null,

  load: async () => {
    const fresh = pushes.state.mark();
    try {
      const { settings, state } = await call('terminal.get', {});
      set(fresh() ? { settings, state, loadError: null } : { settings, loadError: null });
    } catch (e) {
      set({ loadError: errorText(e) });
    }
  },

  listPorts: async () => {
    set({ portsBusy: true, portsError: null });
    try {
      set({ ports: await call('terminal.listPorts', {}) });
    } catch (e) {
      set({ portsError: errorText(e) });
    } finally {
      set({ portsBusy: false });
    }
  },

  configure: async (change) => {
    const base = get().settings;
    const settings = {
      portPath: base?.portPath ?? null,
      baudRate: base?.baudRate,
      query: base?.query,
      pattern: base?.pattern,
      manualSn: base?.manualSn ?? null,
      source: base?.source ?? 'serial',
      ...change,
    };
    set({ saving: true, saveError: null, fieldErrors: {}, needsPin: null, pinError: null });
    try {
      const r = await call('terminal.configure', settings);
      set({ settings: r.settings, state: r.state });
      return true;
    } catch (e) {
      const code = isAppError(e) ? e.code : null;
      if (code === 'PIN_REQUIRED' || code === 'PIN_NOT_SET') {
        set({ needsPin: code === 'PIN_REQUIRED' ? 'required' : 'not-set' });
        return false;
      }
      const fields = fieldErrorsOf(e);
      set({ fieldErrors: fields, saveError: Object.keys(fields).length ? null : errorText(e) });
      return false;
    } finally {
      set({ saving: false });
    }
  },

  unlock: async (pin) => {
    set({ pinError: null });
    try {
      await call('settings.unlock', { pin });
      set({ needsPin: null });
      return true;
    } catch (e) {
      set({ pinError: errorText(e) });
      return false;
    }
  },

  loadDemo: async () => {
    const fresh = pushes.demo.mark();
    try {
      const demo = await call('demo.terminalScreen', {});
      set(fresh() ? { demo, demoError: null } : { demoError: null });
    } catch (e) {
      set({ demoError: errorText(e) });
    }
  },

  present: async (outcome) => {
    if (get().demoBusy) return;
    set({ demoBusy: outcome, demoError: null });
    const fresh = pushes.demo.mark();
    try {
      const demo = await call('demo.present', { outcome });
      if (fresh()) set({ demo });
    } catch (e) {
      set({ demoError: errorText(e) });
    } finally {
      set({ demoBusy: null });
    }
  },
}));

export const terminalFollower: StoreFollower = {
  name: 'terminal',
  listen: (bridge) => [
    bridge.on('terminal.changed', (state) => {
      pushes.state.pushed();
      useTerminal.setState({ state });
    }),
    bridge.on('demo.terminalChanged', (demo) => {
      pushes.demo.pushed();
      useTerminal.setState({ demo, demoError: null });
    }),
  ],
  refresh: async () => {
    const s = useTerminal.getState();
    await Promise.all([s.state ? s.load() : null, s.demo ? s.loadDemo() : null]);
  },
};
