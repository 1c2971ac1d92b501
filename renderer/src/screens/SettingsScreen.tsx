// Settings: behind the admin PIN; choose the active profile and edit any profile.
import { useEffect } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { PROFILE_LABELS, PROFILE_NAMES } from '../../../shared/settings';
import { useApp } from '../stores/app-store';
import { useSettings } from '../stores/settings-store';
import { BackupsPanel } from './backup/BackupsPanel';
import { PinGate } from './PinGate';
import { ProfileForm } from './ProfileForm';
import { ReceiptSettingsPanel } from './receipt/ReceiptSettingsPanel';
import { DiagnosticsPanel } from './settings/DiagnosticsPanel';

export function SettingsScreen() {
  const s = useSettings(useShallow((st) => ({ pin: st.pin, editing: st.editing, view: st.view, message: st.message, refreshPin: st.refreshPin, load: st.load, lock: st.lock, activate: st.activate })));
  const { status, info } = useApp(useShallow((a) => ({ status: a.status, info: a.info })));

  useEffect(() => {
    void s.refreshPin();
  }, []); // eslint-disable-line react-hooks/exhaustive-deps
  useEffect(() => {
    if (s.pin?.unlocked && (!s.view || s.view.profile !== s.editing)) void s.load(s.editing);
  }, [s.pin?.unlocked, s.editing]); // eslint-disable-line react-hooks/exhaustive-deps

  return (
    <section aria-labelledby="screen-title" className="screen">
      <div className="screen-head">
        <h1 id="screen-title" tabIndex={-1}>Settings</h1>
        {s.pin?.unlocked && (
          <button type="button" onClick={() => void s.lock()}>
            Lock settings
          </button>
        )}
      </div>
      {!s.pin ? (
        <p>Loading…</p>
      ) : !s.pin.unlocked ? (
        <PinGate />
      ) : (
        <>
          {s.message && (
            <div className="banner" data-tone={s.message.kind === 'ok' ? 'good' : 'bad'} role={s.message.kind === 'ok' ? 'status' : 'alert'}>
              {s.message.text}
            </div>
          )}
          <div className="card">
            <h2>Profile in use</h2>
            <div className="segmented" role="group" aria-label="Profile in use">
              {PROFILE_NAMES.map((p) => (
                <button key={p} type="button" aria-pressed={status?.profile === p} onClick={() => void s.activate(p)}>
                  {PROFILE_LABELS[p]}
                </button>
              ))}
            </div>
            {info && <p className="hint">{info.secretStorage.note}</p>}
          </div>
          <div className="tabs" role="tablist" aria-label="Profile to edit">
            {PROFILE_NAMES.map((p) => (
              <button key={p} type="button" role="tab" aria-selected={s.editing === p} onClick={() => void s.load(p)}>
                Edit {PROFILE_LABELS[p]}
              </button>
            ))}
          </div>
          {s.view && s.view.profile === s.editing && <ProfileForm view={s.view} />}
          <ReceiptSettingsPanel />
          <BackupsPanel />
          <DiagnosticsPanel />
        </>
      )}
    </section>
  );
}
