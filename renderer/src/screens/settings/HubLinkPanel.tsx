// Settings → Hub: join this counter to the cinema's CounterPay Hub with its address and a one-time
// code from the manager; once joined, who the counter is on the Hub, when it last synced, how many
// events wait, whether the relay is connected; Check now; Leave this Hub (confirmed).
import { useEffect, useState } from 'react';
import { useOnMount } from '../../components/useOnChange';
import { useShallow } from 'zustand/react/shallow';
import { PROFILE_LABELS } from '../../../../shared/settings';
import { Banner, outcome } from '../../components/Banner';
import { Field } from '../../components/Field';
import { SubmitForm } from '../../components/SubmitForm';
import { useApp } from '../../stores/app-store';
import { useHubLink } from '../../stores/hub-link-store';
import {
  enrolledLine,
  HUB_PILL_TONE,
  hubDraftWarning,
  hubPillText,
  syncLine,
  type HubDraft,
} from '../../stores/hub-link-text';
import '../../hub-link-panel.css';

function JoinForm({ rejoin }: { rejoin: boolean }) {
  const h = useHubLink(useShallow((s) => ({ busy: s.busy, fieldErrors: s.fieldErrors, enroll: s.enroll })));
  const status = useApp((s) => s.status);
  const [draft, setDraft] = useState<HubDraft>({ hubUrl: '', code: '' });
  const [shown, setShown] = useState(h.fieldErrors);
  useEffect(() => setShown(h.fieldErrors), [h.fieldErrors]);
  const warning = hubDraftWarning(draft);
  const edit = (k: keyof HubDraft, v: string) => {
    setDraft((d) => ({ ...d, [k]: v }));
    setShown((f) => ({ ...f, [k]: undefined })); // the message goes once the field is being fixed
  };
  const submit = async () => {
    if (await h.enroll(draft)) setDraft({ hubUrl: '', code: '' });
  };
  return (
    <SubmitForm className="hub-join" onSubmit={() => void submit()} aria-labelledby="hub-join-title">
      <h3 id="hub-join-title">{rejoin ? 'Join again with a new code' : 'Join a Hub'}</h3>
      <p className="hint">
        The manager gives you the Hub&apos;s address and a one-time code (it expires). This counter joins
        {status ? (
          <>
            {' '}
            as <strong>{status.counterName}</strong>, for the branch of the {PROFILE_LABELS[status.profile]}{' '}
            profile&apos;s merchant ID
          </>
        ) : null}
        .
      </p>
      {/* The name is the profile's (Settings → Edit …): a Hub that refuses it says why right here. */}
      {shown.counterName && (
        <p className="field-error" role="alert" data-testid="hub-name-error">
          {shown.counterName}
        </p>
      )}
      <div className="hub-join-fields">
        <Field label="Hub address" error={shown.hubUrl} hint={warning ?? 'For example https://hub.mycinema.ng'}>
          {(id, describedBy) => (
            <input
              id={id}
              aria-describedby={describedBy}
              aria-invalid={shown.hubUrl ? true : undefined}
              inputMode="url"
              autoComplete="off"
              spellCheck={false}
              placeholder="https://hub.mycinema.ng"
              value={draft.hubUrl}
              onChange={(e) => edit('hubUrl', e.target.value)}
            />
          )}
        </Field>
        <Field label="Enrollment code" error={shown.code} hint="12 letters and digits, like ABCD-EFGH-JKLM">
          {(id, describedBy) => (
            <input
              id={id}
              aria-describedby={describedBy}
              aria-invalid={shown.code ? true : undefined}
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              className="hub-code"
              placeholder="ABCD-EFGH-JKLM"
              value={draft.code}
              onChange={(e) => edit('code', e.target.value)}
            />
          )}
        </Field>
      </div>
      <div className="actions">
        <button type="submit" className="primary" disabled={h.busy !== null}>
          {h.busy === 'enroll' ? 'Joining…' : 'Join this Hub'}
        </button>
      </div>
    </SubmitForm>
  );
}

export function HubLinkPanel() {
  const h = useHubLink(
    useShallow((s) => ({
      view: s.view,
      busy: s.busy,
      message: s.message,
      load: s.load,
      leave: s.leave,
      checkNow: s.checkNow,
    })),
  );
  const [confirming, setConfirming] = useState(false);

  useOnMount(() => {
    void h.load();
  });

  const v = h.view;
  return (
    <section className="card hub-panel" aria-labelledby="hub-title" data-testid="hub-panel">
      <h2 id="hub-title">Hub</h2>
      <p className="hint">
        A Hub joins this cinema&apos;s counters: the provider&apos;s payment notifications reach this counter through
        it, and its sales, shifts and Z reports are kept there too. Sales never wait for the Hub: when it cannot be
        reached, this counter keeps selling and catches up later.
      </p>
      {h.message && (
        <Banner as="div" className="in-card" {...outcome(h.message.kind === 'ok')} data-testid="hub-message">
          {h.message.text}
        </Banner>
      )}
      {!v ? (
        <p>Loading…</p>
      ) : (
        <>
          {v.hubUrl && (
            <div className="hub-enrolled" data-testid="hub-enrolled">
              <p className="hub-who">
                <span className="pill" data-tone={HUB_PILL_TONE[v.state]}>
                  {hubPillText(v)}
                </span>
                <strong>{enrolledLine(v)}</strong>
              </p>
              <p className="hub-sync" data-testid="hub-sync">
                {syncLine(v)}
              </p>
              {v.state !== 'connected' && (
                <Banner
                  as="p"
                  className="in-card"
                  tone={
                    v.state === 'revoked'
                      ? 'bad'
                      : v.state === 'offline' || v.state === 'not-relaying'
                        ? 'warn'
                        : 'info'
                  }
                  role={v.state === 'revoked' ? 'alert' : 'status'}
                  data-testid="hub-detail"
                >
                  {v.detail}
                </Banner>
              )}
              {v.lastCheck && !v.lastCheck.ok && v.state !== 'offline' && (
                <p className="hint">Last check: {v.lastCheck.message}</p>
              )}
              {v.warnings.map((w) => (
                <Banner key={w} as="p" className="in-card" tone="warn">
                  {w}
                </Banner>
              ))}
              <div className="actions hub-actions">
                {v.state !== 'revoked' && (
                  <button type="button" onClick={() => void h.checkNow()} disabled={h.busy !== null}>
                    {h.busy === 'check' ? 'Checking…' : 'Check now'}
                  </button>
                )}
                {!confirming && (
                  <button type="button" onClick={() => setConfirming(true)} disabled={h.busy !== null}>
                    Leave this Hub…
                  </button>
                )}
              </div>
              {confirming && (
                <div className="hub-leave" role="group" aria-labelledby="hub-leave-title">
                  <h3 id="hub-leave-title">Leave the Hub at {v.hubUrl}?</h3>
                  <p>
                    This counter stops sending its sales to the Hub, and payments are followed by asking the provider,
                    as before. Sales go on. Events not yet sent stay on this counter. To join again you need a new code
                    from the manager.
                  </p>
                  <div className="actions">
                    <button
                      type="button"
                      className="danger"
                      autoFocus
                      disabled={h.busy !== null}
                      onClick={() => void h.leave().then((ok) => ok && setConfirming(false))}
                    >
                      {h.busy === 'leave' ? 'Leaving…' : 'Leave this Hub'}
                    </button>
                    <button type="button" onClick={() => setConfirming(false)} disabled={h.busy === 'leave'}>
                      Stay joined
                    </button>
                  </div>
                </div>
              )}
            </div>
          )}
          {(!v.hubUrl || v.state === 'revoked') && <JoinForm rejoin={v.state === 'revoked'} />}
        </>
      )}
    </section>
  );
}
