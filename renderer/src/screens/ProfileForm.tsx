// One profile's settings. Keys are write-only: the form shows "set" and a fingerprint, and only
// sends a key the admin typed. Errors come back per field; a save is all or nothing.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { profileWarnings } from '../../../shared/profile-safety';
import { SECRET_LABELS, SECRET_NAMES, type ProfileView, type SecretName } from '../../../shared/settings';
import { DeliveryCheck } from '../components/DeliveryCheck';
import { Field } from '../components/Field';
import { useApp } from '../stores/app-store';
import { call } from '../transport/bridge';
import { useSettings } from '../stores/settings-store';
import { Banner } from '../components/Banner';

type Settings = ProfileView['settings'];
type TextKey =
  | 'counterName'
  | 'billsBaseUrl'
  | 'posBaseUrl'
  | 'billsMerchantId'
  | 'headMerchantId'
  | 'merchantId'
  | 'orderExpireSeconds'
  | 'requestTimeoutMs';

const SECTIONS: { title: string; fields: { key: TextKey; label: string; hint?: string; numeric?: boolean }[] }[] = [
  {
    title: 'Counter',
    fields: [
      { key: 'counterName', label: 'Counter name', hint: 'Printed on receipts and used in sale numbers.' },
      {
        key: 'orderExpireSeconds',
        label: 'Payment time limit (seconds)',
        numeric: true,
        hint: 'How long the terminal waits for the card.',
      },
    ],
  },
  {
    title: 'Provider addresses',
    fields: [
      { key: 'posBaseUrl', label: 'POS payment API address' },
      { key: 'billsBaseUrl', label: 'Bills API address (with /api/v3)' },
      { key: 'requestTimeoutMs', label: 'Request timeout (ms)', numeric: true },
    ],
  },
  {
    title: 'Merchant',
    fields: [
      { key: 'headMerchantId', label: 'Business id (headMerchantId)' },
      { key: 'merchantId', label: 'Branch id (merchantId)' },
      { key: 'billsMerchantId', label: 'Bills MerchantId' },
    ],
  },
];

type Draft = Record<TextKey, string>;

function toDraft(s: Settings): Draft {
  return {
    counterName: s.counterName,
    billsBaseUrl: s.billsBaseUrl,
    posBaseUrl: s.posBaseUrl,
    billsMerchantId: s.billsMerchantId,
    headMerchantId: s.headMerchantId,
    merchantId: s.merchantId,
    orderExpireSeconds: String(s.orderExpireSeconds),
    requestTimeoutMs: String(s.requestTimeoutMs),
  };
}

export function ProfileForm({ view }: { view: ProfileView }) {
  const { busy, fieldErrors, save } = useSettings(
    useShallow((s) => ({ busy: s.busy, fieldErrors: s.fieldErrors, save: s.save })),
  );
  const [draft, setDraft] = useState<Draft>(() => toDraft(view.settings));
  const [conventions, setConventions] = useState(view.settings.conventions);
  const [webhook, setWebhook] = useState({ ...view.settings.webhook, port: String(view.settings.webhook.port) });
  const [secrets, setSecrets] = useState<Partial<Record<SecretName, string>>>({});
  const formRef = useRef<HTMLFormElement>(null);
  const activeProfile = useApp((a) => a.status?.profile);

  // After a refused save, take the admin to the first field that needs fixing.
  useEffect(() => {
    if (Object.keys(fieldErrors).length === 0) return;
    const first = formRef.current?.querySelector<HTMLElement>(
      '.field[data-invalid] input, .field[data-invalid] textarea, .field[data-invalid] select',
    );
    if (first) {
      first.closest('details')?.setAttribute('open', '');
      first.focus();
      first.scrollIntoView({ block: 'center' });
    }
  }, [fieldErrors]);

  useEffect(() => {
    setDraft(toDraft(view.settings));
    setConventions(view.settings.conventions);
    setWebhook({ ...view.settings.webhook, port: String(view.settings.webhook.port) });
    setSecrets({});
  }, [view]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const settings = { ...view.settings, ...draft, conventions, webhook } as unknown as Settings; // numbers are coerced and checked in main
    if (await save(settings, secrets)) setSecrets({});
  };
  const err = (key: string) => fieldErrors[`settings.${key}`];
  const warnings = profileWarnings(view.profile, view.settings);

  return (
    <form
      ref={formRef}
      className="profile-form"
      onSubmit={submit}
      onKeyDown={(e) => {
        if (e.key === 's' && (e.ctrlKey || e.metaKey)) {
          e.preventDefault();
          void submit(e);
        }
      }}
    >
      {view.profile === 'demo' && (
        <Banner tone="info">
          Demo runs its own provider sandbox inside CounterPay: its addresses, ids and keys are filled in each time the
          app starts.
        </Banner>
      )}
      {view.profile === 'production' && (
        <p className="hint">Production accepts only https:// addresses and checks every response signature.</p>
      )}
      {warnings.length > 0 && (
        <Banner as="div" tone="warn" data-testid="profile-warnings">
          <strong>Check before selling with this profile:</strong>
          <ul>
            {warnings.map((w) => (
              <li key={w.field}>{w.message}</li>
            ))}
          </ul>
        </Banner>
      )}
      {SECTIONS.map((sec) => (
        <fieldset key={sec.title} className="card">
          <legend>{sec.title}</legend>
          <div className="grid">
            {sec.fields.map((f) => (
              <Field key={f.key} label={f.label} error={err(f.key)} hint={f.hint}>
                {(id, d) => (
                  <input
                    id={id}
                    name={f.key}
                    aria-describedby={d}
                    aria-invalid={err(f.key) ? true : undefined}
                    inputMode={f.numeric ? 'numeric' : undefined}
                    value={draft[f.key]}
                    onChange={(e) => setDraft({ ...draft, [f.key]: e.target.value })}
                  />
                )}
              </Field>
            ))}
          </div>
        </fieldset>
      ))}

      <fieldset className="card">
        <legend>Keys</legend>
        <p className="hint">
          Keys are never shown again once saved. Paste a new one to replace it; leave the box empty to keep it.
        </p>
        <div className="grid">
          {SECRET_NAMES.map((name) => {
            const st = view.secrets[name];
            const pem = name === 'merchantPrivateKey' || name === 'providerPublicKey';
            const error = fieldErrors[`secrets.${name}`];
            return (
              <Field
                key={name}
                label={SECRET_LABELS[name]}
                error={error}
                hint={
                  <span data-testid={`secret-status-${name}`}>{st?.set ? `Set · ${st.fingerprint}` : 'Not set'}</span>
                }
              >
                {(id, d) =>
                  pem ? (
                    <textarea
                      id={id}
                      name={name}
                      aria-describedby={d}
                      aria-invalid={error ? true : undefined}
                      rows={3}
                      spellCheck={false}
                      autoComplete="off"
                      placeholder={st?.set ? 'Paste to replace' : 'Paste the PEM'}
                      value={secrets[name] ?? ''}
                      onChange={(e) => setSecrets({ ...secrets, [name]: e.target.value })}
                    />
                  ) : (
                    <input
                      id={id}
                      name={name}
                      aria-describedby={d}
                      aria-invalid={error ? true : undefined}
                      type="password"
                      autoComplete="off"
                      placeholder={st?.set ? 'Type to replace' : 'Not set'}
                      value={secrets[name] ?? ''}
                      onChange={(e) => setSecrets({ ...secrets, [name]: e.target.value })}
                    />
                  )
                }
              </Field>
            );
          })}
        </div>
      </fieldset>

      <fieldset className="card">
        <legend>Webhook receiver</legend>
        <div className="grid">
          <label className="check">
            <input
              type="checkbox"
              checked={webhook.enabled}
              onChange={(e) => setWebhook({ ...webhook, enabled: e.target.checked })}
            />{' '}
            Receive payment notifications
          </label>
          <Field label="Listen on address" error={err('webhook.host')}>
            {(id, d) => (
              <input
                id={id}
                aria-describedby={d}
                value={webhook.host}
                onChange={(e) => setWebhook({ ...webhook, host: e.target.value })}
              />
            )}
          </Field>
          <Field label="Port" error={err('webhook.port')}>
            {(id, d) => (
              <input
                id={id}
                aria-describedby={d}
                inputMode="numeric"
                value={webhook.port}
                onChange={(e) => setWebhook({ ...webhook, port: e.target.value })}
              />
            )}
          </Field>
          <Field label="Public address the provider calls (optional)" error={err('webhook.callbackBaseUrl')}>
            {(id, d) => (
              <input
                id={id}
                aria-describedby={d}
                value={webhook.callbackBaseUrl}
                onChange={(e) => setWebhook({ ...webhook, callbackBaseUrl: e.target.value })}
              />
            )}
          </Field>
        </div>
        {view.profile === activeProfile ? (
          <DeliveryCheck
            testId="settings-delivery"
            showOrder
            label="Check delivery of the last paid order"
            ask={() => call('delivery.checkLastPaid', {})}
          />
        ) : (
          <p className="hint">To check the provider’s webhook delivery, make this profile the one in use.</p>
        )}
      </fieldset>

      <details className="card">
        <summary>Provider conventions (advanced: change only if the provider tells you to)</summary>
        <div className="grid">
          <Select
            label="Bills signature encoding"
            value={conventions.billsSignatureEncoding}
            options={['hex', 'base64']}
            onChange={(v) => setConventions({ ...conventions, billsSignatureEncoding: v as 'hex' })}
          />
          <Select
            label="Sort keys inside nested objects"
            value={conventions.billsRecursiveKeySort ? 'yes' : 'no'}
            options={['yes', 'no']}
            onChange={(v) => setConventions({ ...conventions, billsRecursiveKeySort: v === 'yes' })}
          />
          <Select
            label="JSON escaping in signed bodies"
            value={conventions.jsonEscaping}
            options={['plain', 'escape-slash-and-non-ascii']}
            onChange={(v) => setConventions({ ...conventions, jsonEscaping: v as 'plain' })}
          />
          <Select
            label="bulk-status authentication"
            value={conventions.bulkStatusAuth}
            options={['publicKey', 'signature']}
            onChange={(v) => setConventions({ ...conventions, bulkStatusAuth: v as 'publicKey' })}
          />
          <Select
            label="Encrypt POS requests in chunks"
            value={conventions.posEncryptChunked ? 'yes' : 'no'}
            options={['yes', 'no']}
            onChange={(v) => setConventions({ ...conventions, posEncryptChunked: v === 'yes' })}
          />
          <Select
            label="POS signature hash"
            value={conventions.posSignHash}
            options={['SHA256', 'SHA1']}
            onChange={(v) => setConventions({ ...conventions, posSignHash: v as 'SHA256' })}
          />
          <Select
            label="Response signature form"
            value={conventions.posResponseSignForm}
            options={['either', 'dataTimestamp', 'sortedKv']}
            onChange={(v) => setConventions({ ...conventions, posResponseSignForm: v as 'either' })}
          />
          <Select
            label="Response signature check"
            error={err('conventions.posResponseVerify')}
            value={conventions.posResponseVerify}
            options={['verify', 'warn', 'off']}
            onChange={(v) => setConventions({ ...conventions, posResponseVerify: v as 'verify' })}
          />
          <Field label="'Order not found' codes (comma separated)" error={err('conventions.posNotFoundCodes')}>
            {(id, d) => (
              <input
                id={id}
                aria-describedby={d}
                value={conventions.posNotFoundCodes.join(',')}
                onChange={(e) =>
                  setConventions({
                    ...conventions,
                    posNotFoundCodes: e.target.value
                      .split(',')
                      .map((s) => s.trim())
                      .filter(Boolean),
                  })
                }
              />
            )}
          </Field>
          <Field label="subSceneEnum" error={err('conventions.posSubScene')}>
            {(id, d) => (
              <input
                id={id}
                aria-describedby={d}
                value={conventions.posSubScene}
                onChange={(e) => setConventions({ ...conventions, posSubScene: e.target.value })}
              />
            )}
          </Field>
          <Field label="Webhook transaction header" error={err('conventions.webhookTranIdHeader')}>
            {(id, d) => (
              <input
                id={id}
                aria-describedby={d}
                value={conventions.webhookTranIdHeader}
                onChange={(e) => setConventions({ ...conventions, webhookTranIdHeader: e.target.value })}
              />
            )}
          </Field>
        </div>
      </details>

      <div className="actions sticky-actions">
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Saving…' : 'Save profile'} <kbd>Ctrl+S</kbd>
        </button>
        {Object.keys(fieldErrors).length > 0 && (
          <span className="field-error">
            Nothing was saved: {Object.keys(fieldErrors).length} field{Object.keys(fieldErrors).length === 1 ? '' : 's'}{' '}
            to fix (marked in red).
          </span>
        )}
      </div>
    </form>
  );
}

function Select(props: {
  label: string;
  value: string;
  options: string[];
  error?: string | undefined;
  onChange: (v: string) => void;
}) {
  return (
    <Field label={props.label} error={props.error}>
      {(id, d) => (
        <select
          id={id}
          aria-describedby={d}
          aria-invalid={props.error ? true : undefined}
          value={props.value}
          onChange={(e) => props.onChange(e.target.value)}
        >
          {props.options.map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
