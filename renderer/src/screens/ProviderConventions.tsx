// The provider's conventions on a profile's form: the advanced part, changed only when the provider
// says so (docs/provider-protocol.md says what each means).
import type { ProfileView } from '../../../shared/settings';
import { Field } from '../components/Field';

type Conventions = ProfileView['settings']['conventions'];

export function ProviderConventions({
  conventions,
  onChange: setConventions,
  err,
}: {
  conventions: Conventions;
  onChange: (c: Conventions) => void;
  /** The save's error for a settings field, by its path under settings. */
  err: (key: string) => string | undefined;
}) {
  return (
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
