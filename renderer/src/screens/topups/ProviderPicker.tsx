// The betting providers as big choices (logo, name, the amounts each takes), from main's cached
// list, with its age and a Refresh button; shown offline from the cache.
import { useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { boundsText } from '../../../../shared/topups';
import { useTopups } from '../../stores/topups-store';
import { formatLagosTime } from '../../format';
import { Banner } from '../../components/Banner';

function Logo({ url, name }: { url: string; name: string }) {
  const [broken, setBroken] = useState(false);
  if (!url || broken) {
    return (
      <span className="tu-logo tu-logo-letter" aria-hidden="true">
        {name.slice(0, 1)}
      </span>
    );
  }
  return <img className="tu-logo" src={url} alt="" onError={() => setBroken(true)} />;
}

export function ProviderPicker({ error }: { error?: string | undefined }) {
  const s = useTopups(
    useShallow((st) => ({
      providers: st.providers,
      busy: st.providersBusy,
      chosen: st.draft.provider,
      edit: st.edit,
      refresh: st.refreshProviders,
      touch: st.touch,
    })),
  );
  const list = s.providers?.providers ?? [];
  const age = s.providers?.fetchedAt ? `List from ${formatLagosTime(s.providers.fetchedAt)}` : 'List not loaded yet';
  return (
    <fieldset
      className="tu-choices"
      data-invalid={error ? 'true' : undefined}
      aria-describedby={error ? 'tu-provider-error' : undefined}
    >
      <legend>Betting provider</legend>
      <div className="tu-list-head">
        <span className="hint">{age}</span>
        <button type="button" onClick={() => void s.refresh()} disabled={s.busy}>
          {s.busy ? 'Refreshing…' : 'Refresh list'}
        </button>
      </div>
      {s.providers?.refreshError && (
        <Banner tone="warn" role="status">
          Could not refresh the list{list.length ? '; showing the saved one' : ''}. {s.providers.refreshError}
        </Banner>
      )}
      <div className="tu-provider-grid" role="radiogroup" aria-label="Betting provider">
        {list.map((p) => (
          <button
            key={p.provider}
            type="button"
            role="radio"
            aria-checked={s.chosen === p.provider}
            className="tu-provider"
            onClick={() => {
              s.edit('provider', p.provider);
              s.touch('provider');
            }}
          >
            <Logo url={p.providerLogoUrl} name={p.provider} />
            <span className="tu-provider-name">{p.provider}</span>
            <span className="tu-provider-bounds">
              {boundsText({ minKobo: p.minAmountKobo, maxKobo: p.maxAmountKobo })}
            </span>
          </button>
        ))}
        {list.length === 0 && !s.busy && (
          <p className="hint">No providers yet. Press Refresh list when the provider can be reached.</p>
        )}
      </div>
      {error && (
        <div className="field-error" id="tu-provider-error" role="alert">
          {error}
        </div>
      )}
    </fieldset>
  );
}
