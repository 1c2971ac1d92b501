// The Sell screen's terminal box: which terminal payments go to, live; and, folded away, the
// serial port and baud rate, or the serial number typed by hand.
import { useEffect, useState, type FormEvent } from 'react';
import { useOnChange } from './useOnChange';
import { useShallow } from 'zustand/react/shallow';
import { STANDARD_BAUD_RATES, validateManualSn, type TerminalSource } from '../../../shared/terminal';
import { useApp } from '../stores/app-store';
import { useTerminal } from '../stores/terminal-store';
import { Field } from './Field';
import { Banner } from './Banner';
import { terminalVerdict } from '../stores/terminal-verdict';

export const TERMINAL_CHANGE_ID = 'terminal-change';

/** `fallbackSn` is the sn main offers for sales when the link has none (e.g. the Demo terminal). */
export function TerminalPicker({ fallbackSn }: { fallbackSn: string | null }) {
  const t = useTerminal(
    useShallow((s) => ({
      settings: s.settings,
      state: s.state,
      loadError: s.loadError,
      ports: s.ports,
      portsBusy: s.portsBusy,
      portsError: s.portsError,
      saving: s.saving,
      saveError: s.saveError,
      fieldErrors: s.fieldErrors,
      load: s.load,
      listPorts: s.listPorts,
      configure: s.configure,
      needsPin: s.needsPin,
      pinError: s.pinError,
      unlock: s.unlock,
    })),
  );
  const [open, setOpen] = useState(false);
  const [source, setSource] = useState<TerminalSource>('serial');
  const [port, setPort] = useState('');
  const [baud, setBaud] = useState('115200');
  const [manualSn, setManualSn] = useState('');
  const [snError, setSnError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const [adminPin, setAdminPin] = useState('');

  const profile = useApp((a) => a.status?.profile);
  useOnChange(() => {
    void t.load();
  }, [profile]);

  // The form starts from what main has saved.
  useEffect(() => {
    if (!t.settings) return;
    setSource(t.settings.source);
    setPort(t.settings.portPath ?? '');
    setBaud(String(t.settings.baudRate));
    setManualSn(t.settings.manualSn ?? '');
  }, [t.settings]);

  useOnChange(() => {
    if (open && t.ports === null && !t.portsBusy) void t.listPorts();
  }, [open]);

  const sn = t.state?.sn ?? fallbackSn;
  const status = t.state
    ? terminalVerdict({ status: t.state.status, sn: t.state.sn, portPath: t.state.portPath })
    : null;
  const noTerminal = !sn;

  // Nothing to sell with: show how to choose a terminal straight away.
  useEffect(() => {
    if (noTerminal && (t.state || t.loadError)) setOpen(true);
  }, [noTerminal, t.state, t.loadError]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSaved(false);
    if (source === 'manual') {
      const v = validateManualSn(manualSn);
      if (!v.ok) {
        setSnError(
          /\s/.test(manualSn.trim()) ? 'Type the serial number without spaces (letters, digits and - only)' : v.message,
        );
        return;
      }
      setSnError(null);
      if (await t.configure({ source: 'manual', manualSn: v.sn })) setSaved(true);
    } else {
      const serial = {
        source: 'serial' as const,
        portPath: port || null,
        baudRate: Number(baud) as (typeof STANDARD_BAUD_RATES)[number],
      };
      // A port change needs the admin PIN: when it was asked for, unlock first and send it again.
      if (t.needsPin === 'required') {
        if (!(await t.unlock(adminPin))) return;
        setAdminPin('');
      }
      if (await t.configure(serial)) setSaved(true);
    }
  };

  const portOptions = t.ports ?? [];
  const portKnown = !port || portOptions.some((p) => p.path === port);

  return (
    <section className="card terminal-card" aria-labelledby="terminal-title">
      <div className="terminal-head">
        <h2 id="terminal-title">Terminal</h2>
        {status && (
          <span className="pill" data-tone={status.tone} data-testid="terminal-status">
            {status.text}
          </span>
        )}
      </div>
      <p className="terminal-sn" data-testid="terminal-sn">
        {sn ? (
          <>
            SN <strong>{sn}</strong>
            {t.state?.portPath && t.state.source === 'serial' ? (
              <span className="hint"> on {t.state.portPath}</span>
            ) : null}
          </>
        ) : (
          <strong className="no-terminal">{status?.next ?? 'No terminal chosen'}</strong>
        )}
      </p>
      {t.loadError && (
        <p className="field-error" role="alert">
          Terminal status unavailable: {t.loadError}
        </p>
      )}
      {t.state?.lastError && (
        <Banner className="terminal-error" tone="bad" role="alert">
          {t.state.lastError}
        </Banner>
      )}

      <details className="terminal-change" open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
        <summary id={TERMINAL_CHANGE_ID}>{noTerminal ? 'Choose the terminal' : 'Change terminal'}</summary>
        <form className="terminal-form" onSubmit={submit}>
          <div className="segmented" role="group" aria-label="How the terminal is found">
            <button type="button" aria-pressed={source === 'serial'} onClick={() => setSource('serial')}>
              Serial cable
            </button>
            <button type="button" aria-pressed={source === 'manual'} onClick={() => setSource('manual')}>
              Type the SN
            </button>
          </div>
          {source === 'serial' ? (
            <>
              <Field label="Serial port" error={t.fieldErrors.portPath ?? t.portsError ?? undefined}>
                {(id, d) => (
                  <div className="with-button">
                    <select id={id} aria-describedby={d} value={port} onChange={(e) => setPort(e.target.value)}>
                      <option value="">
                        {t.ports === null
                          ? 'Looking for ports…'
                          : portOptions.length
                            ? 'Choose a port'
                            : 'No serial ports found'}
                      </option>
                      {!portKnown && <option value={port}>{port} (not plugged in)</option>}
                      {portOptions.map((p) => (
                        <option key={p.path} value={p.path}>
                          {p.path}
                          {p.manufacturer ? ` · ${p.manufacturer}` : ''}
                        </option>
                      ))}
                    </select>
                    <button
                      type="button"
                      onClick={() => void t.listPorts()}
                      disabled={t.portsBusy}
                      aria-label="Look for serial ports again"
                    >
                      {t.portsBusy ? 'Looking…' : 'Refresh'}
                    </button>
                  </div>
                )}
              </Field>
              <Field label="Baud rate" error={t.fieldErrors.baudRate} hint="Most terminals use 115200 or 9600.">
                {(id, d) => (
                  <select id={id} aria-describedby={d} value={baud} onChange={(e) => setBaud(e.target.value)}>
                    {STANDARD_BAUD_RATES.map((b) => (
                      <option key={b} value={b}>
                        {b}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
            </>
          ) : (
            <Field
              label="Terminal serial number (SN)"
              error={snError ?? t.fieldErrors.manualSn}
              hint="Printed on the label under the terminal."
            >
              {(id, d) => (
                <input
                  id={id}
                  aria-describedby={d}
                  aria-invalid={snError ? true : undefined}
                  autoComplete="off"
                  spellCheck={false}
                  value={manualSn}
                  onChange={(e) => {
                    setManualSn(e.target.value);
                    setSnError(null);
                    setSaved(false);
                  }}
                />
              )}
            </Field>
          )}
          {source === 'serial' && t.needsPin === 'required' && (
            <Field
              label="Admin PIN"
              error={t.pinError ?? undefined}
              hint="Serial port and speed are set by the admin: enter the admin PIN. Typing the SN by hand needs no PIN."
            >
              {(id, d) => (
                <input
                  id={id}
                  aria-describedby={d}
                  type="password"
                  inputMode="numeric"
                  autoComplete="off"
                  autoFocus
                  value={adminPin}
                  onChange={(e) => setAdminPin(e.target.value)}
                />
              )}
            </Field>
          )}
          {source === 'serial' && t.needsPin === 'not-set' && (
            <Banner tone="warn" role="alert">
              Serial port and speed are set by the admin, and no admin PIN is chosen yet: open Settings (Alt+5) to
              choose one. You can type the SN by hand meanwhile.
            </Banner>
          )}
          {t.saveError && (
            <p className="field-error" role="alert">
              {t.saveError}
            </p>
          )}
          {Object.entries(t.fieldErrors)
            .filter(([k]) => !['portPath', 'baudRate', 'manualSn'].includes(k))
            .map(([k, msg]) => (
              <p key={k} className="field-error" role="alert">
                {msg}
              </p>
            ))}
          <div className="actions">
            <button type="submit" disabled={t.saving}>
              {t.saving
                ? 'Saving…'
                : source === 'manual'
                  ? 'Use this SN'
                  : t.needsPin === 'required'
                    ? 'Unlock and connect'
                    : 'Connect'}
            </button>
            {saved && !t.saving && !t.state?.lastError && (
              <span className="hint" role="status">
                Saved
              </span>
            )}
          </div>
        </form>
      </details>
    </section>
  );
}
