// One profile's settings. Keys are write-only: the form shows "set" and a fingerprint, and only
// sends a key the admin typed (ProfileKeys.tsx). Errors come back per field; a save is all or nothing.
// The provider's conventions, the advanced part, are ProviderConventions.tsx.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { profileWarnings } from '../../../shared/profile-safety';
import type { ProfileView, SecretName } from '../../../shared/settings';
import { DeliveryCheck } from '../components/DeliveryCheck';
import { Field } from '../components/Field';
import { useApp } from '../stores/app-store';
import { call } from '../transport/bridge';
import { useSettings } from '../stores/settings-store';
import { Banner } from '../components/Banner';
import { KeyFields } from './ProfileKeys';
import { ProviderConventions } from './ProviderConventions';

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

      <KeyFields
        status={view.secrets}
        typed={secrets}
        onChange={setSecrets}
        errorOf={(name) => fieldErrors[`secrets.${name}`]}
      />

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

      <ProviderConventions conventions={conventions} onChange={setConventions} err={err} />

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
