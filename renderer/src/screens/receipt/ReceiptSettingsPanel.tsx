// The receipt printer and what the receipt says about the cinema: kind of printer and its address,
// paper width, copies, printing by itself when paid, a test page. Saving needs the admin PIN (the
// form unlocks in place). Mount it on the Settings screen and under Shift → Printer.
import { useEffect, useState, type FormEvent } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { MAX_COPIES, PAPER_WIDTHS, PRINTER_KIND_LABELS, PRINTER_KINDS, SERIAL_BAUD_RATES, type PrinterSettings, type CinemaSettings } from '../../../../shared/records';
import type { SerialPortInfo } from '../../../../shared/terminal';
import { Field } from '../../components/Field';
import { useReceipts } from '../../stores/receipt-store';
import { useSettings } from '../../stores/settings-store';
import { call } from '../../transport/bridge';
import { PinGate } from '../PinGate';
import { Banner, outcome } from '../../components/Banner';
import '../../printer-settings.css';

type PrintingForm = Omit<PrinterSettings, 'port' | 'copies' | 'baudRate'> & { port: string; copies: string; baudRate: string };

function toForm(p: PrinterSettings): PrintingForm {
  return { ...p, port: String(p.port), copies: String(p.copies), baudRate: String(p.baudRate) };
}

export function ReceiptSettingsPanel() {
  const r = useReceipts(
    useShallow((s) => ({
      settings: s.settings, settingsError: s.settingsError, saving: s.saving, saveMessage: s.saveMessage, fieldErrors: s.fieldErrors, systemPrinters: s.systemPrinters,
      busy: s.busy, messages: s.messages, loadSettings: s.loadSettings, saveSettings: s.saveSettings, loadSystemPrinters: s.loadSystemPrinters, testPage: s.testPage,
    })),
  );
  const pin = useSettings((s) => s.pin);
  const refreshPin = useSettings((s) => s.refreshPin);
  const [printing, setPrinting] = useState<PrintingForm | null>(null);
  const [cinema, setCinema] = useState<CinemaSettings | null>(null);
  const [ports, setPorts] = useState<SerialPortInfo[] | null>(null);

  useEffect(() => {
    void r.loadSettings();
    void r.loadSystemPrinters();
    void refreshPin();
  }, []); // eslint-disable-line react-hooks/exhaustive-deps
  useEffect(() => {
    if (r.settings && !printing) {
      setPrinting(toForm(r.settings.printing));
      setCinema(r.settings.cinema);
    }
  }, [r.settings]); // eslint-disable-line react-hooks/exhaustive-deps

  const loadPorts = () => void call('terminal.listPorts', {}).then(setPorts, () => setPorts([]));
  useEffect(() => {
    if (printing?.kind === 'serial' && ports === null) loadPorts();
  }, [printing?.kind]); // eslint-disable-line react-hooks/exhaustive-deps

  if (r.settingsError) return <Banner tone="bad" role="alert">The printer settings cannot be loaded: {r.settingsError}</Banner>;
  if (!r.settings || !printing || !cinema) return <p>Loading the printer settings…</p>;

  const err = (k: string) => r.fieldErrors[k];
  const up = (patch: Partial<PrintingForm>) => setPrinting({ ...printing, ...patch });
  const upCinema = (patch: Partial<CinemaSettings>) => setCinema({ ...cinema, ...patch });
  const locked = pin !== null && !pin.unlocked;
  const browser = !r.settings.systemPrinting.available;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (await r.saveSettings({ printing: { ...printing }, cinema: { ...cinema } })) {
      const saved = useReceipts.getState().settings;
      if (saved) setPrinting(toForm(saved.printing));
    } else {
      document.querySelector<HTMLElement>('.receipt-settings [aria-invalid="true"]')?.focus();
    }
  };

  return (
    <div className="receipt-settings">
      {locked && (
        <div className="receipt-settings-lock">
          <p className="hint">Anyone can print a test page. Changing the printer needs the admin PIN.</p>
          <PinGate />
        </div>
      )}
      <form className="card" onSubmit={submit} aria-labelledby="printer-settings-title" noValidate>
        <h2 id="printer-settings-title">Receipt printer</h2>
        <fieldset className="plain-fieldset" disabled={locked}>
          <legend className="sr-only">Kind of printer</legend>
          <div className="segmented" role="group" aria-label="Kind of printer">
            {PRINTER_KINDS.map((k) => (
              <button key={k} type="button" aria-pressed={printing.kind === k} onClick={() => up({ kind: k })}>
                {PRINTER_KIND_LABELS[k]}
              </button>
            ))}
          </div>

          {printing.kind === 'system' && (
            <div className="grid">
              {browser ? (
                <p className="hint printer-note">{r.settings.systemPrinting.note}</p>
              ) : (
                <>
                  <Field label="Printer" error={err('printing.systemPrinterName')} hint="The computer’s default printer when none is chosen.">
                    {(id, d) => (
                      <select id={id} aria-describedby={d} value={printing.systemPrinterName} onChange={(e) => up({ systemPrinterName: e.target.value })}>
                        <option value="">The default printer</option>
                        {r.systemPrinters.map((p) => (
                          <option key={p.name} value={p.name}>
                            {p.displayName}
                            {p.isDefault ? ' (default)' : ''}
                          </option>
                        ))}
                      </select>
                    )}
                  </Field>
                  <label className="check">
                    <input type="checkbox" checked={printing.systemSilent} onChange={(e) => up({ systemSilent: e.target.checked })} />
                    Print straight away (no print window)
                  </label>
                </>
              )}
            </div>
          )}

          {printing.kind === 'network' && (
            <div className="grid">
              <Field label="Printer address" error={err('printing.host')} hint="Its IP address or network name, for example 192.168.1.50 (printed on its self-test page).">
                {(id, d) => <input id={id} aria-describedby={d} aria-invalid={!!err('printing.host')} value={printing.host} onChange={(e) => up({ host: e.target.value })} autoComplete="off" spellCheck={false} />}
              </Field>
              <Field label="Port" error={err('printing.port')} hint="Nearly always 9100.">
                {(id, d) => <input id={id} aria-describedby={d} aria-invalid={!!err('printing.port')} inputMode="numeric" value={printing.port} onChange={(e) => up({ port: e.target.value })} />}
              </Field>
            </div>
          )}

          {printing.kind === 'serial' && (
            <div className="grid">
              <Field label="Serial port" error={err('printing.serialPath')} hint="The port the printer’s cable is in (COM3, /dev/ttyUSB0).">
                {(id, d) => (
                  <div className="with-button">
                    <select id={id} aria-describedby={d} aria-invalid={!!err('printing.serialPath')} value={printing.serialPath} onChange={(e) => up({ serialPath: e.target.value })}>
                      <option value="">Choose a port…</option>
                      {printing.serialPath && !(ports ?? []).some((p) => p.path === printing.serialPath) && <option value={printing.serialPath}>{printing.serialPath}</option>}
                      {(ports ?? []).map((p) => (
                        <option key={p.path} value={p.path}>
                          {p.path}
                          {p.manufacturer ? ` (${p.manufacturer})` : ''}
                        </option>
                      ))}
                    </select>
                    <button type="button" onClick={loadPorts}>
                      Look again
                    </button>
                  </div>
                )}
              </Field>
              <Field label="Speed" error={err('printing.baudRate')} hint="As set on the printer (its self-test page shows it).">
                {(id, d) => (
                  <select id={id} aria-describedby={d} value={printing.baudRate} onChange={(e) => up({ baudRate: e.target.value })}>
                    {SERIAL_BAUD_RATES.map((b) => (
                      <option key={b} value={String(b)}>
                        {b} baud
                      </option>
                    ))}
                  </select>
                )}
              </Field>
            </div>
          )}

          <div className="grid">
            <div className="field">
              <span className="field-label" id="paper-label">Paper width</span>
              <div className="segmented" role="group" aria-labelledby="paper-label">
                {PAPER_WIDTHS.map((w) => (
                  <button key={w} type="button" aria-pressed={printing.paper === w} onClick={() => up({ paper: w })}>
                    {w} mm
                  </button>
                ))}
              </div>
            </div>
            <Field label="Copies of each receipt" error={err('printing.copies')} hint={`1 to ${MAX_COPIES}: each copy is cut off on its own.`}>
              {(id, d) => <input id={id} aria-describedby={d} aria-invalid={!!err('printing.copies')} inputMode="numeric" value={printing.copies} onChange={(e) => up({ copies: e.target.value })} />}
            </Field>
          </div>
          <label className="check">
            <input type="checkbox" checked={printing.autoPrint} onChange={(e) => up({ autoPrint: e.target.checked })} />
            Print the receipt by itself as soon as a payment is paid
          </label>

          <h3>On every receipt</h3>
          <div className="grid">
            <Field label="Cinema name" error={err('cinema.name')}>
              {(id, d) => <input id={id} aria-describedby={d} aria-invalid={!!err('cinema.name')} value={cinema.name} onChange={(e) => upCinema({ name: e.target.value })} />}
            </Field>
            <Field label="Branch (optional)" error={err('cinema.branch')}>
              {(id, d) => <input id={id} aria-describedby={d} aria-invalid={!!err('cinema.branch')} value={cinema.branch} onChange={(e) => upCinema({ branch: e.target.value })} />}
            </Field>
            <Field label="Last line (optional)" error={err('cinema.footer')}>
              {(id, d) => <input id={id} aria-describedby={d} aria-invalid={!!err('cinema.footer')} value={cinema.footer} onChange={(e) => upCinema({ footer: e.target.value })} />}
            </Field>
          </div>
        </fieldset>

        {r.saveMessage && (
          <Banner {...outcome(r.saveMessage.kind === 'ok')}>
            {r.saveMessage.text}
          </Banner>
        )}
        <div className="actions">
          <button type="submit" className="primary" disabled={r.saving || locked}>
            {r.saving ? 'Saving…' : 'Save printer settings'}
          </button>
          <button type="button" disabled={!!r.busy['test-page']} onClick={() => void r.testPage()}>
            {r.busy['test-page'] ? 'Printing…' : 'Print a test page'}
          </button>
        </div>
        {r.messages['test-page'] && (
          <p className="hint" role="status" data-testid="test-page-result">
            {r.messages['test-page']}
          </p>
        )}
        <p className="hint">The test page uses the saved settings: save first.</p>
      </form>
    </div>
  );
}
