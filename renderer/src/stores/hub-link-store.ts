// Settings → Hub: the counter's Hub link as main reports it (hub.changed), joining with an address
// and a one-time code, leaving, and "Check now". The credential never reaches the page.
import { create } from 'zustand';
import { isAppError } from '../../../shared/errors';
import type { HubLinkView } from '../../../shared/hub-link';
import { call } from '../transport/bridge';
import { busyRunner } from './busy-run';
import { fieldErrorsOf } from './call-errors';
import type { StoreFollower } from './follow';
import { hubDraftErrors, type HubDraft } from './hub-link-text';

interface HubLinkState {
  view: HubLinkView | null;
  busy: 'enroll' | 'leave' | 'check' | null;
  message: { kind: 'ok' | 'error'; text: string } | null;
  /** Field messages of the join form; counterName blames the profile's counter name (HUB_NAME_TAKEN). */
  fieldErrors: Partial<Record<keyof HubDraft | 'counterName', string>>;
  load(): Promise<void>;
  /** True once joined; otherwise the form keeps what was typed and shows what to fix. */
  enroll(d: HubDraft): Promise<boolean>;
  leave(): Promise<boolean>;
  checkNow(): Promise<void>;
}

/** Main's refusals that blame one field carry it in details.fields (VALIDATION, HUB_NOT_A_HUB, HUB_CODE_INVALID, HUB_NAME_TAKEN). */
function fieldsOf(e: unknown): HubLinkState['fieldErrors'] {
  const all =
    isAppError(e) && e.code.startsWith('HUB_')
      ? ((e.details?.fields as Record<string, unknown> | undefined) ?? {})
      : fieldErrorsOf(e);
  const out: HubLinkState['fieldErrors'] = {};
  for (const k of ['hubUrl', 'code', 'counterName'] as const) if (typeof all[k] === 'string') out[k] = all[k];
  return out;
}

/**
 * hub.changed events seen so far. A call's answer was taken when main answered; an event that
 * arrived meanwhile (the relay connecting while the join was answered) is newer, so the answer's
 * view is only shown when no event came in between.
 */
let eventsSeen = 0;

export const useHubLink = create<HubLinkState>((set, get) => {
  const run = busyRunner(set, (e) => ({ fieldErrors: fieldsOf(e) }));
  /** The view of an answer to a call started when `before` events had been seen, unless an event replaced it. */
  const viewOf = (view: HubLinkView, before: number) => (eventsSeen === before ? { view } : {});
  return {
    view: null,
    busy: null,
    message: null,
    fieldErrors: {},
    load: async () => {
      const before = eventsSeen;
      const view = await run(null, () => call('hub.status', {}));
      if (view) set(viewOf(view, before));
    },
    enroll: async (d) => {
      const problems = hubDraftErrors(d);
      if (Object.keys(problems).length > 0) {
        set({
          fieldErrors: problems,
          message: { kind: 'error', text: 'This counter was not joined: fix the fields marked below.' },
        });
        return false;
      }
      set({ fieldErrors: {} });
      const before = eventsSeen;
      const view = await run('enroll', () => call('hub.enroll', d));
      if (!view) return false;
      set({
        ...viewOf(view, before),
        message: { kind: 'ok', text: `Joined the Hub at ${view.hubUrl} as ${view.counterName}.` },
      });
      return true;
    },
    leave: async () => {
      const before = eventsSeen;
      const view = await run('leave', () => call('hub.leave', {}));
      if (!view) return false;
      set({
        ...viewOf(view, before),
        fieldErrors: {},
        message: {
          kind: 'ok',
          text: 'This counter left the Hub. Sales go on as before; events not yet sent are kept for the next Hub.',
        },
      });
      return true;
    },
    checkNow: async () => {
      const before = eventsSeen;
      const view = await run('check', () => call('hub.checkNow', {}));
      if (view) set(viewOf(view, before));
      else void get().load();
    },
  };
});

export const hubLinkFollower: StoreFollower = {
  name: 'hub',
  listen: (bridge) => [
    bridge.on('hub.changed', (view) => {
      eventsSeen += 1;
      // "Joined the Hub…" no longer holds once the link is somewhere else (offline, removed).
      const { message, view: was } = useHubLink.getState();
      const stale =
        message?.kind === 'ok' &&
        was !== null &&
        was.state !== view.state &&
        view.state !== 'connected' &&
        view.state !== 'connecting';
      useHubLink.setState(stale ? { view, message: null } : { view });
    }),
  ],
  // Only what was loaded: the Hub tab reads its view when it opens.
  refresh: () => (useHubLink.getState().view ? useHubLink.getState().load() : undefined),
};
