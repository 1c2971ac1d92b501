// Settings → Integrations and the payment panel's "asked by": this module answers the
// integrations' calls. It builds the integrations (pairing, charge desk, callbacks, HTTP API)
// on the shared checkout and runs the API where the settings say (settings key `integrations`).
// The API runs only while at least one system is paired.
import { join } from 'node:path';
import type { integrationCalls, IntegrationsView } from '../../shared/contract-integrations';
import type { CoreModule } from '../core-module';
import type { CoreServices } from '../core-services';
import type { TerminalLink } from '../terminal';
import { AppError } from '../../shared/errors';
import { IntegrationApiError } from './integration-errors';
import { createIntegrations, type ApiPlacement, type IntegrationsDeps } from './integrations-service';

const DEFAULT_API_PORT = 17_480;
/** How often a taken port is tried again, until it is free or another port is chosen. */
const API_RETRY_MS = 5_000;
const SETTINGS_KEY = 'integrations';

/** The shared services this module uses, and the checkout and terminal link it sells through. */
type IntegrationsContext = Pick<CoreServices, 'db' | 'vault' | 'store' | 'logger' | 'clock' | 'events' | 'dataDir'> & {
  checkout: IntegrationsDeps['checkout'];
  terminal: TerminalLink;
};

export interface IntegrationsModuleDeps {
  /** Tests: a fixed placement (port 0 picks a free one) instead of the saved settings' port. */
  port?: number;
  callbackBackoff?: IntegrationsDeps['callbackBackoff'];
  dropScanMs?: number;
  /** Tests: failed attempts allowed per caller address. */
  attemptLimits?: IntegrationsDeps['attemptLimits'];
}

export function createIntegrationsModule(ctx: IntegrationsContext, deps: IntegrationsModuleDeps = {}) {
  const integrations = createIntegrations({
    db: ctx.db,
    checkout: ctx.checkout,
    vault: ctx.vault,
    logger: ctx.logger,
    now: () => ctx.clock.now(),
    terminalSn: () => ctx.terminal.getState().sn ?? null,
    onNewCharge: (order, origin) => ctx.events.emit('integrations.charge', { order, origin }),
    dropRoot: join(ctx.dataDir, 'box-office-drop'),
    ...(deps.dropScanMs ? { dropScanMs: deps.dropScanMs } : {}),
    ...(deps.callbackBackoff ? { callbackBackoff: deps.callbackBackoff } : {}),
    ...(deps.attemptLimits ? { attemptLimits: deps.attemptLimits } : {}),
  });
  // The cashier's queue follows every change of a box office's charge (asked, sent, cancelled, ended).
  const offQueue = ctx.checkout.on('order', (v) => {
    if (integrations.queue.isCharge(v.id)) ctx.events.emit('integrations.queue', integrations.queue.list());
  });
  let problem: string | null = null;
  let retry: ReturnType<typeof setTimeout> | null = null;
  let stopped = false;

  function placement(): ApiPlacement {
    const saved = ctx.store.get(SETTINGS_KEY) as Partial<ApiPlacement> | undefined;
    return {
      port: deps.port ?? (typeof saved?.port === 'number' ? saved.port : DEFAULT_API_PORT),
      lan: saved?.lan === true,
    };
  }

  async function apply(): Promise<void> {
    if (retry) clearTimeout(retry);
    retry = null;
    const p = placement();
    const wasDown = problem !== null;
    problem = null;
    try {
      await integrations.serve(integrations.list().length > 0 ? p : null);
      if (wasDown) ctx.events.emit('integrations.changed', view());
    } catch (e) {
      const reason = e instanceof Error ? e.message : String(e);
      problem = `The integration API could not listen on port ${p.port} (${reason}): choose another port below, or free this one — CounterPay tries it again every ${API_RETRY_MS / 1000} seconds and starts by itself.`;
      if (!wasDown) ctx.logger.warn('integration API not started', { port: p.port, error: reason });
      // A port taken by another program is often freed later: try again until it is, or another is chosen.
      if (!stopped) {
        retry = setTimeout(() => void apply(), API_RETRY_MS);
        retry.unref?.();
      }
    }
  }

  function view(): IntegrationsView {
    const p = placement();
    const url = integrations.apiUrl();
    const warning =
      problem ??
      (p.lan
        ? 'Other computers on the network can call this counter, over plain HTTP: keys and sales cross the network unencrypted. Use it on a trusted network only, or behind an HTTPS proxy.'
        : undefined);
    return {
      api: {
        port: deps.port ?? p.port,
        lan: p.lan,
        url,
        fixed: deps.port !== undefined,
        ...(warning ? { warning } : {}),
      },
      integrations: integrations.list(),
    };
  }

  const module: CoreModule<typeof integrationCalls> = {
    handlers: {
      'integrations.list': () => view(),
      'integrations.pair': async (a) => {
        const paired = integrations.pair(a.name, a.callbackUrl === '' ? null : a.callbackUrl);
        if (!integrations.apiUrl()) await apply();
        return paired;
      },
      'integrations.revoke': async (a) => {
        integrations.revoke(a.id);
        if (integrations.list().length === 0) await apply();
        return view();
      },
      'integrations.setApi': async (a) => {
        ctx.store.set(SETTINGS_KEY, { port: a.port, lan: a.lan });
        await apply();
        return view();
      },
      'integrations.originOf': (a) => integrations.desk.originOf(a.orderId),
      'integrations.queue': () => integrations.queue.list(),
      'integrations.cancelQueued': (a) => integrations.queue.cancelAtCounter(a.orderId),
      'integrations.openLink': async (a) => {
        try {
          const r = await integrations.openLink(a.url);
          return {
            created: r.created,
            reference: r.charge.reference,
            state: r.charge.state,
            outOrderNo: r.charge.outOrderNo,
          };
        } catch (e) {
          if (e instanceof IntegrationApiError) {
            const code =
              e.code === 'NO_SHIFT' || e.code === 'QUEUE_FULL'
                ? e.code
                : e.status === 422
                  ? 'VALIDATION'
                  : e.status === 409
                    ? 'CONFLICT'
                    : e.status === 503
                      ? 'NOT_READY'
                      : e.status === 401
                        ? 'BAD_ARGUMENTS'
                        : 'INTERNAL';
            throw new AppError(code, e.message, e.fields ? { fields: e.fields } : undefined);
          }
          throw e;
        }
      },
    },
    async start() {
      stopped = false;
      integrations.resume();
      await apply();
    },
    stop: () => {
      stopped = true;
      offQueue();
      if (retry) clearTimeout(retry);
      retry = null;
      return integrations.stop();
    },
  };
  return Object.assign(module, { integrations });
}
