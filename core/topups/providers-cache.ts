// The betting providers list: fetched from the provider on demand, kept in the settings store per
// profile with its fetch time, so the Top-ups screen shows it (and checks amounts) offline.
import { z } from 'zod';
import { isAppError } from '../../shared/errors';
import { BettingProviderViewSchema, type ProvidersView } from '../../shared/topups';
import type { Clock } from '../../shared/clock';
import type { Logger } from '../../shared/logger';
import type { BillsClient } from '../provider';
import type { KeyValueStore } from '../settings';
import type { ProviderList } from './topup-input';

const Stored = z.object({ providers: z.array(BettingProviderViewSchema), fetchedAt: z.number() });

interface ProvidersCacheDeps {
  store: KeyValueStore;
  bills: () => BillsClient;
  clock: Clock;
  logger: Logger;
  /** The active profile: each has its own list (its own provider environment). */
  profile: () => string;
}

export function createProvidersCache(deps: ProvidersCacheDeps) {
  const key = () => `topups.bettingProviders.${deps.profile()}`;
  const lastError = new Map<string, string>();
  let inFlight: Promise<ProvidersView> | null = null;

  function read(): z.infer<typeof Stored> | null {
    const parsed = Stored.safeParse(deps.store.get(key()));
    return parsed.success ? parsed.data : null;
  }

  function view(): ProvidersView {
    const s = read();
    return {
      providers: s?.providers ?? [],
      fetchedAt: s?.fetchedAt ?? null,
      refreshError: lastError.get(key()) ?? null,
    };
  }

  async function fetchNow(): Promise<ProvidersView> {
    const k = key();
    try {
      const list = await deps.bills().bettingProviders();
      const providers = list
        .map((p) => ({
          provider: p.provider,
          providerLogoUrl: safeLogo(p.providerLogoUrl),
          minAmountKobo: p.minAmountKobo,
          maxAmountKobo: p.maxAmountKobo,
        }))
        .sort((a, b) => a.provider.localeCompare(b.provider));
      deps.store.set(k, { providers, fetchedAt: deps.clock.now() });
      lastError.delete(k);
      deps.logger.info('betting providers refreshed', { count: providers.length });
    } catch (e) {
      const message = isAppError(e) ? e.message : 'The betting providers could not be loaded.';
      lastError.set(k, message);
      deps.logger.warn('betting providers refresh failed; the cached list stays', {
        code: isAppError(e) ? e.code : 'INTERNAL',
      });
    }
    return view();
  }

  return {
    view,
    /** Fetches the list now (one fetch at a time); on failure the cached list stays and refreshError says why. */
    refresh(): Promise<ProvidersView> {
      inFlight ??= fetchNow().finally(() => {
        inFlight = null;
      });
      return inFlight;
    },
    /** The list to check top-ups against: fetched first when there is none or it is older than maxAgeMs. */
    async list(maxAgeMs: number): Promise<ProviderList> {
      const s = read();
      if (!s || deps.clock.now() - s.fetchedAt > maxAgeMs) await this.refresh();
      const now = read();
      if (now) return { providers: now.providers, missingReason: '' };
      const why = lastError.get(key());
      return {
        providers: null,
        missingReason: `The betting providers list could not be loaded${why ? `: ${why}` : ''}. Refresh it when the provider can be reached.`,
      };
    },
  };
}

/** Only http(s) logos reach the screen (the renderer's CSP decides whether it shows them). */
function safeLogo(url: string): string {
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.toString() : '';
  } catch {
    return '';
  }
}
export type ProvidersCache = ReturnType<typeof createProvidersCache>;
