// The receipt printer and what the receipt says about the cinema: kind of printer and its address,
// paper width, copies, printing by itself when paid, a test page. Saving needs the admin PIN (the
// form unlocks in place). Mount it on the Settings screen and under Shift → Printer. The fields of
// each kind of printer live in PrinterKindFields.tsx.
import { useState, type FormEvent } from 'react';
import { useOnMount, useOnChange } from '../../components/useOnChange';
import { useShallow } from 'zustand/react/shallow';
import {
  PRINTER_KIND_LABELS,
  PRINTER_KINDS,
  type CinemaSettings,
  type PrinterSettings,
} from '../../../../shared/records';
import { useReceipts } from '../../stores/receipt-store';
import { useSettings } from '../../stores/settings-store';
import { Banner, outcome } from '../../components/Banner';
import { PinGate } from '../PinGate';
import {
  CinemaFields,
  NetworkPrinterFields,
  PaperFields,
  SerialPrinterFields,
  SystemPrinterFields,
  type PrintingForm,
} from './PrinterKindFields';
import '../../printer-settings.css';

function toForm(p: PrinterSettings): PrintingForm {
  return { ...p, port: String(p.port), copies: String(p.copies), baudRate: String(p.baudRate) };
}

export function ReceiptSettingsPanel() {
  const r = useReceipts(
    useShallow((s) => ({
      settings: s.settings,
      settingsError: s.settingsError,
      saving: s.saving,
      saveMessage: s.saveMessage,
      fieldErrors: s.fieldErrors,
      systemPrinters: s.systemPrinters,
      busy: s.busy,
      messages: s.messages,
      loadSettings: s.loadSettings,
      saveSettings: s.saveSettings,
      loadSystemPrinters: s.loadSystemPrinters,
      testPage: s.testPage,
    })),
  );
  const pin = useSettings((s) => s.pin);
  const refreshPin = useSettings((s) => s.refreshPin);
  const [printing, setPrinting] = useState<PrintingForm | null>(null);
  const [cinema, setCinema] = useState<CinemaSettings | null>(null);

  useOnMount(() => {
    void r.loadSettings();
    void r.loadSystemPrinters();
    void refreshPin();
  });
  useOnChange(() => {
    if (r.settings && !printing) {
      setPrinting(toForm(r.settings.printing));
      setCinema(r.settings.cinema);
    }
  }, [r.settings]);

  if (r.settingsError)
    return (
      <Banner tone="bad" role="alert">
        The printer settings cannot be loaded: {r.settingsError}
      </Banner>
    );
  if (!r.settings || !printing || !cinema) return <p>Loading the printer settings…</p>;

  const err = (k: string) => r.fieldErrors[k];
  const up = (patch: Partial<PrintingForm>) => setPrinting({ ...printing, ...patch });
  const upCinema = (patch: Partial<CinemaSettings>) => setCinema({ ...cinema, ...patch });
  const locked = pin !== null && !pin.unlocked;
  const part = { printing, up, err };

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
            <SystemPrinterFields
              {...part}
              browserNote={r.settings.systemPrinting.available ? null : r.settings.systemPrinting.note}
              printers={r.systemPrinters}
            />
          )}
          {printing.kind === 'network' && <NetworkPrinterFields {...part} />}
          {printing.kind === 'serial' && <SerialPrinterFields {...part} />}
          <PaperFields {...part} />
          <CinemaFields cinema={cinema} upCinema={upCinema} err={err} />
        </fieldset>

        {r.saveMessage && <Banner {...outcome(r.saveMessage.kind === 'ok')}>{r.saveMessage.text}</Banner>}
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
