// Settings → Integrations: the box-office systems paired with this counter's integration API.
// Pair one (a name and, optionally, its callback URL): its key shows once, to copy into the box
// office, and never again. The list shows each system's key fingerprint and last call; Unpair
// stops its key at once. Where the API listens, and whether other computers may call it.
import { useEffect, useState } from 'react';
import { useOnMount } from '../../components/useOnChange';
import { useShallow } from 'zustand/react/shallow';
import { Banner, outcome } from '../../components/Banner';
import { Field } from '../../components/Field';
import { SubmitForm } from '../../components/SubmitForm';
import { formatLagosDateTime } from '../../format';
import { useIntegrations } from '../../stores/integrations-store';
import '../../data-table.css';

function PairForm() {
  const s = useIntegrations(useShallow((st) => ({ busy: st.busy, fieldErrors: st.fieldErrors, pair: st.pair })));
  const [name, setName] = useState('');
  const [callbackUrl, setCallbackUrl] = useState('');
  const submit = async () => {
    if (await s.pair(name, callbackUrl)) {
      setName('');
      setCallbackUrl('');
    }
  };
  return (
    <SubmitForm className="integration-pair" onSubmit={() => void submit()} aria-labelledby="integration-pair-title">
      <h3 id="integration-pair-title">Pair a system</h3>
      <Field
        label="Name"
        error={s.fieldErrors.name}
        hint='Shown to the cashier on each charge it asks for, e.g. "Box office"'
      >
        {(id, d) => (
          <input
            id={id}
            aria-describedby={d}
            aria-invalid={s.fieldErrors.name ? true : undefined}
            value={name}
            onChange={(e) => setName(e.target.value)}
            autoComplete="off"
          />
        )}
      </Field>
      <Field
        label="Callback URL (optional)"
        error={s.fieldErrors.callbackUrl}
        hint="Where every change of its charges is sent, signed with its key"
      >
        {(id, d) => (
          <input
            id={id}
            aria-describedby={d}
            aria-invalid={s.fieldErrors.callbackUrl ? true : undefined}
            inputMode="url"
            spellCheck={false}
            placeholder="https://boxoffice.local/counterpay"
            value={callbackUrl}
            onChange={(e) => setCallbackUrl(e.target.value)}
          />
        )}
      </Field>
      <div className="actions">
        <button type="submit" className="primary" disabled={s.busy !== null}>
          {s.busy === 'pair' ? 'Pairing…' : 'Pair'}
        </button>
      </div>
    </SubmitForm>
  );
}

/** The port the integration API listens on (box offices are told its address). */
function ApiPortForm({ port, lan, fixed }: { port: number; lan: boolean; fixed: boolean }) {
  const s = useIntegrations(useShallow((st) => ({ busy: st.busy, fieldErrors: st.fieldErrors, setApi: st.setApi })));
  const [typed, setTyped] = useState(String(port));
  useEffect(() => setTyped(String(port)), [port]);
  if (fixed)
    return (
      <p className="hint" data-testid="integrations-port-fixed">
        Port {port} was given when CounterPay started (--integration-port): restart without it to choose here.
      </p>
    );
  return (
    <SubmitForm
      className="integration-port"
      onSubmit={() => void s.setApi(/^\d+$/.test(typed.trim()) ? Number(typed.trim()) : Number.NaN, lan)}
      aria-label="Integration API port"
    >
      <Field
        label="Port of the integration API"
        error={s.fieldErrors.port}
        hint="1024 to 65535; box offices call http://127.0.0.1:PORT (tell them when it changes)"
      >
        {(id, d) => (
          <input
            id={id}
            aria-describedby={d}
            aria-invalid={s.fieldErrors.port ? true : undefined}
            inputMode="numeric"
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            autoComplete="off"
          />
        )}
      </Field>
      <div className="actions">
        <button type="submit" disabled={s.busy !== null}>
          {s.busy === 'api' ? 'Starting…' : 'Use this port'}
        </button>
      </div>
    </SubmitForm>
  );
}

export function IntegrationsPanel() {
  const s = useIntegrations(
    useShallow((st) => ({
      view: st.view,
      busy: st.busy,
      message: st.message,
      newKey: st.newKey,
      load: st.load,
      revoke: st.revoke,
      setApi: st.setApi,
      closeKey: st.closeKey,
    })),
  );
  useOnMount(() => {
    void s.load();
  });
  const v = s.view;
  return (
    <section className="card" aria-labelledby="integrations-title" data-testid="integrations-panel">
      <h2 id="integrations-title">Integrations</h2>
      <p className="hint">
        A box office (the cinema&apos;s ticketing system) can ask this counter for a charge and be told the outcome.
        Each system gets its own key; see docs/integration.md for its developer.
      </p>
      {s.message && (
        <Banner as="div" className="in-card" {...outcome(s.message.kind === 'ok')} data-testid="integrations-message">
          {s.message.text}
        </Banner>
      )}
      {s.newKey && (
        <div className="integration-key" data-testid="integration-key">
          <p>
            <strong>Key for {s.newKey.name}</strong> — copy it into the box office now; CounterPay will not show it
            again.
          </p>
          <code className="mono" aria-label="Key" style={{ wordBreak: 'break-all', fontSize: '1.1em' }}>
            {s.newKey.key}
          </code>
          <div className="actions">
            <button type="button" onClick={() => void navigator.clipboard?.writeText(s.newKey!.key)}>
              Copy
            </button>
            <button type="button" onClick={s.closeKey}>
              I have copied it
            </button>
          </div>
        </div>
      )}
      {v && (
        <>
          <p data-testid="integrations-api">
            {v.api.url ? (
              <>
                The integration API answers at <code>{v.api.url}</code>
                {v.api.lan ? ' and on this computer’s network addresses' : ' (this computer only)'}.
              </>
            ) : (
              <>
                The integration API is not running
                {v.integrations.length === 0 ? ': it starts when a system is paired' : ''}. Its address will be{' '}
                <code>http://127.0.0.1:{v.api.port}</code>.
              </>
            )}
          </p>
          {v.api.warning && (
            <Banner as="div" className="in-card" tone="warn" data-testid="integrations-warning">
              {v.api.warning}
            </Banner>
          )}
          <ApiPortForm port={v.api.port} lan={v.api.lan} fixed={v.api.fixed === true} />
          <label className="check">
            <input
              type="checkbox"
              checked={v.api.lan}
              disabled={s.busy !== null}
              onChange={(e) => void s.setApi(v.api.port, e.target.checked)}
            />
            Let other computers on the network call this counter (plain HTTP)
          </label>
          {v.integrations.length === 0 ? (
            <p className="hint">No system is paired.</p>
          ) : (
            <table className="data-table" data-testid="integrations-list">
              <thead>
                <tr>
                  <th>Name</th>
                  <th>Key</th>
                  <th>Callback URL</th>
                  <th>Paired</th>
                  <th>Last call</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {v.integrations.map((i) => (
                  <tr key={i.id}>
                    <td>
                      {i.name}
                      {i.dropFolder && (
                        <div className="hint mono" title="Folder drop: inbox/, outbox/ and rejected/ inside">
                          {i.dropFolder}
                        </div>
                      )}
                    </td>
                    <td className="mono">{i.keyFingerprint}</td>
                    <td className="mono">{i.callbackUrl ?? '—'}</td>
                    <td>{formatLagosDateTime(i.createdAt)}</td>
                    <td>{i.lastUsedAt ? formatLagosDateTime(i.lastUsedAt) : 'never'}</td>
                    <td>
                      <button type="button" disabled={s.busy !== null} onClick={() => void s.revoke(i.id)}>
                        Unpair
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <PairForm />
        </>
      )}
    </section>
  );
}
