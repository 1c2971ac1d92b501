// One top-up, keyboard first: airtime (network, phone, amount) or betting (provider, customer id,
// "Check customer" to confirm the name with the customer, amount within the provider's bounds).
import { useEffect, useMemo, useRef } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { AIRTIME_NETWORKS, networkFromPrefix, networkName } from '../../../../shared/topups';
import { SubmitForm } from '../../components/SubmitForm';
import { Field } from '../../components/Field';
import { useTopups } from '../../stores/topups-store';
import { ProviderPicker } from './ProviderPicker';
import { checkSingle, type SingleField } from '../../stores/topup-form';
import { formatNaira } from '../../format';
import { Banner } from '../../components/Banner';

const QUICK_AMOUNTS = ['100', '200', '500', '1000'];

export function SingleForm() {
  const s = useTopups(
    useShallow((st) => ({
      draft: st.draft,
      touched: st.touched,
      submitted: st.submitted,
      serverErrors: st.serverErrors,
      message: st.message,
      busy: st.busy,
      customer: st.customer,
      checking: st.checking,
      providers: st.providers,
      setService: st.setService,
      edit: st.edit,
      touch: st.touch,
      submit: st.submit,
      checkCustomer: st.checkCustomer,
    })),
  );
  const refs = useRef<Partial<Record<SingleField, HTMLElement | null>>>({});
  const check = useMemo(() => checkSingle(s.draft, s.providers?.providers ?? []), [s.draft, s.providers]);
  const airtime = s.draft.serviceType === 'airtime';
  const value = (k: SingleField): string => s.draft[k] ?? '';
  const errorFor = (k: SingleField): string | undefined =>
    s.serverErrors[k] ?? (s.submitted || (s.touched[k] && value(k).trim() !== '') ? check.errors[k] : undefined);
  const focus = (k: SingleField | null) => {
    if (k) refs.current[k]?.focus();
  };

  useEffect(() => {
    focus(airtime ? 'phone' : 'customerId');
  }, [airtime]);

  const needsCheck = !airtime && !s.customer;
  const amountText = check.amountKobo !== null ? formatNaira(check.amountKobo) : '';
  const payLabel = airtime
    ? `Top up ${amountText} ${s.draft.network ? networkName(s.draft.network) : ''} airtime${check.phoneDisplay ? ` to ${s.draft.phone.trim()}` : ''}`
    : `Pay ${amountText} to ${s.customer ? `${s.customer.firstName} ${s.customer.lastName}`.trim() : 'the customer'}${check.provider ? ` at ${check.provider.provider}` : ''}`;

  const pay = async () => {
    if (needsCheck) {
      focus(await s.checkCustomer());
      return;
    }
    focus(await s.submit());
  };

  const text = (
    k: 'phone' | 'customerId' | 'amount',
    label: string,
    extra: React.InputHTMLAttributes<HTMLInputElement>,
    hint?: React.ReactNode,
    after?: React.ReactNode,
  ) => {
    const error = errorFor(k);
    return (
      <Field label={label} error={error} hint={hint}>
        {(id, d) => (
          <div className={k === 'amount' ? 'tu-money' : 'tu-with-button'}>
            {k === 'amount' && <span aria-hidden="true">₦</span>}
            <input
              id={id}
              name={k}
              aria-describedby={d}
              aria-invalid={error ? true : undefined}
              autoComplete="off"
              spellCheck={false}
              ref={(n) => {
                refs.current[k] = n;
              }}
              value={s.draft[k]}
              onChange={(e) => s.edit(k, e.target.value)}
              onBlur={() => s.touch(k)}
              {...extra}
            />
            {after}
          </div>
        )}
      </Field>
    );
  };

  const amountBlock = (
    <div className="tu-amount">
      {text(
        'amount',
        'Amount (₦)',
        { inputMode: 'decimal', placeholder: airtime ? '500' : '1000' },
        check.boundsHint === 'any amount'
          ? undefined
          : `${airtime ? 'Airtime' : (check.provider?.provider ?? 'The provider')} takes ${check.boundsHint}`,
      )}
      {airtime && (
        <div className="tu-quick" role="group" aria-label="Quick amounts">
          {QUICK_AMOUNTS.map((a) => (
            <button key={a} type="button" onClick={() => s.edit('amount', a)} aria-pressed={s.draft.amount === a}>
              {formatNaira(Number(a) * 100).replace('.00', '')}
            </button>
          ))}
        </div>
      )}
    </div>
  );

  return (
    <SubmitForm className="card tu-form" aria-label="New top-up" onSubmit={() => void pay()}>
      <div className="segmented tu-service" role="group" aria-label="Top-up type">
        {(['airtime', 'betting'] as const).map((t) => (
          <button key={t} type="button" aria-pressed={s.draft.serviceType === t} onClick={() => s.setService(t)}>
            {t === 'airtime' ? 'Airtime' : 'Betting wallet'}
          </button>
        ))}
      </div>

      {airtime ? (
        <>
          <fieldset className="tu-choices" data-invalid={errorFor('network') ? 'true' : undefined}>
            <legend>Network</legend>
            <div className="tu-network-grid" role="radiogroup" aria-label="Network">
              {AIRTIME_NETWORKS.map((n, i) => (
                <button
                  key={n.code}
                  type="button"
                  role="radio"
                  aria-checked={s.draft.network === n.code}
                  className="tu-network"
                  data-network={n.code}
                  ref={
                    i === 0
                      ? (el) => {
                          refs.current.network = el;
                        }
                      : undefined
                  }
                  onClick={() => {
                    s.edit('network', n.code);
                    s.touch('network');
                  }}
                >
                  {n.name}
                </button>
              ))}
            </div>
            {errorFor('network') && (
              <div className="field-error" role="alert">
                {errorFor('network')}
              </div>
            )}
            {!errorFor('network') && s.draft.network && networkFromPrefix(s.draft.phone) === s.draft.network && (
              <p className="hint tu-network-hint" data-testid="network-hint">
                Picked from the number's first digits: change it if the customer moved their number to another network.
              </p>
            )}
          </fieldset>
          <div className="tu-row">
            {text(
              'phone',
              "Customer's phone number",
              { inputMode: 'tel', placeholder: '0803 123 4567' },
              check.phoneDisplay ? (
                <span className="tu-ok">✓ {check.phoneDisplay}</span>
              ) : (
                'As the customer says it: 0803 123 4567, 234803…, +234 803…'
              ),
            )}
            {amountBlock}
          </div>
        </>
      ) : (
        <>
          <ProviderPicker error={errorFor('provider')} />
          <div className="tu-row">
            {text(
              'customerId',
              'Customer id at the betting site',
              {
                placeholder: 'As the customer sees it on the site',
                onKeyDown: (e) => {
                  if (e.key === 'Enter' && !s.customer) {
                    e.preventDefault();
                    // The amount comes next: the focus goes there at once, so what is typed while the
                    // check runs is not added to the customer id; back to the field to fix if any.
                    if (s.draft.customerId.trim()) focus('amount');
                    void s.checkCustomer().then(focus);
                  }
                },
              },
              undefined,
              <button
                type="button"
                onClick={() =>
                  void s.checkCustomer().then((k) => focus(k ?? (useTopups.getState().customer ? 'amount' : null)))
                }
                disabled={s.checking || !!s.customer}
              >
                {s.checking ? 'Checking…' : s.customer ? 'Checked ✓' : 'Check customer'}
              </button>,
            )}
            {amountBlock}
          </div>
          {s.customer && (
            <div className="tu-customer" role="status">
              <span className="tu-customer-label">Ask the customer: is this you?</span>
              <strong>{`${s.customer.firstName} ${s.customer.lastName}`.trim() || s.customer.userName}</strong>
              <span>
                User name <b>{s.customer.userName || '—'}</b> · {s.customer.provider} id {s.customer.customerId}
              </span>
            </div>
          )}
        </>
      )}

      {s.message && (
        <Banner tone="bad" role="alert">
          {s.message}
        </Banner>
      )}
      <div className="tu-pay">
        <button type="submit" className="primary tu-pay-button" disabled={s.busy || s.checking}>
          {s.busy ? 'Sending…' : needsCheck ? 'Check the customer first' : payLabel.replace(/\s+/g, ' ')}
          <kbd aria-hidden="true">Enter</kbd>
        </button>
        {needsCheck && (
          <p className="hint">Betting top-ups are paid after the customer confirms the name the provider gives.</p>
        )}
      </div>
    </SubmitForm>
  );
}
