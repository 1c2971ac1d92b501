// Settings: behind the admin PIN; choose the active profile and edit any profile.
import { useOnMount, useOnChange } from '../components/useOnChange';
import { useShallow } from 'zustand/react/shallow';
import { PROFILE_LABELS, PROFILE_NAMES } from '../../../shared/settings';
import { ScreenHead } from '../components/ScreenHead';
import { TabPanel, Tabs } from '../components/Tabs';
import { useApp } from '../stores/app-store';
import { useSettings } from '../stores/settings-store';
import { BackupsPanel } from './backup/BackupsPanel';
import { PinGate } from './PinGate';
import { ProfileForm } from './ProfileForm';
import { ReceiptSettingsPanel } from './receipt/ReceiptSettingsPanel';
import { DiagnosticsPanel } from './settings/DiagnosticsPanel';
import { ProgrammePanel } from './settings/ProgrammePanel';
import { LayoutsPanel } from './settings/LayoutsPanel';
import { ConcessionsPanel } from './settings/ConcessionsPanel';
import { HubLinkPanel } from './settings/HubLinkPanel';
import { IntegrationsPanel } from './settings/IntegrationsPanel';
import { Banner, outcome } from '../components/Banner';

const PROFILE_TABS = PROFILE_NAMES.map((p) => ({ id: p, label: `Edit ${PROFILE_LABELS[p]}` }));

export function SettingsScreen() {
  const s = useSettings(
    useShallow((st) => ({
      pin: st.pin,
      editing: st.editing,
      view: st.view,
      message: st.message,
      refreshPin: st.refreshPin,
      load: st.load,
      openProfile: st.openProfile,
      lock: st.lock,
      activate: st.activate,
    })),
  );
  const { status, info } = useApp(useShallow((a) => ({ status: a.status, info: a.info })));

  useOnMount(() => {
    void s.refreshPin();
  });
  useOnChange(() => {
    if (s.pin?.unlocked && (!s.view || s.view.profile !== s.editing)) void s.load(s.editing);
  }, [s.pin?.unlocked, s.editing]);

  return (
    <section aria-labelledby="screen-title" className="screen">
      <ScreenHead title="Settings">
        {s.pin?.unlocked && (
          <button type="button" onClick={() => void s.lock()}>
            Lock settings
          </button>
        )}
      </ScreenHead>
      {!s.pin ? (
        <p>Loading…</p>
      ) : !s.pin.unlocked ? (
        <PinGate />
      ) : (
        <>
          {s.message && (
            <Banner as="div" {...outcome(s.message.kind === 'ok')}>
              {s.message.text}
            </Banner>
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
          <Tabs
            idPrefix="profile"
            label="Profile to edit"
            tabs={PROFILE_TABS}
            selected={s.editing}
            onSelect={(p) => void s.openProfile(p)}
          />
          <TabPanel idPrefix="profile" id={s.editing}>
            {s.view && s.view.profile === s.editing && <ProfileForm view={s.view} />}
          </TabPanel>
          <ProgrammePanel />
          <LayoutsPanel />
          <ConcessionsPanel />
          <HubLinkPanel />
          <IntegrationsPanel />
          <ReceiptSettingsPanel />
          <BackupsPanel />
          <DiagnosticsPanel />
        </>
      )}
    </section>
  );
}
