// The printer settings that depend on the kind of printer, one component per kind, plus the
// fields every kind shares (paper, copies, printing by itself) and what the receipt says about
// the cinema. ReceiptSettingsPanel owns the form state; these only show and edit their part.
import { useEffect, useState } from 'react';
import {
  MAX_COPIES,
  PAPER_WIDTHS,
  SERIAL_BAUD_RATES,
  type CinemaSettings,
  type PrinterSettings,
} from '../../../../shared/records';
import type { SerialPortInfo } from '../../../../shared/terminal';
import { Field } from '../../components/Field';
import { call } from '../../transport/bridge';

export type PrintingForm = Omit<PrinterSettings, 'port' | 'copies' | 'baudRate'> & {
  port: string;
  copies: string;
  baudRate: string;
};

interface PrintingPartProps {
  printing: PrintingForm;
  up(patch: Partial<PrintingForm>): void;
  /** The save's message for a field ("printing.host"), if any. */
  err(key: string): string | undefined;
}

/** A printer of the computer's own, or (in the browser shell) the browser's print window. */
export function SystemPrinterFields({
  printing,
  up,
  err,
  browserNote,
  printers,
}: PrintingPartProps & {
  browserNote: string | null;
  printers: { name: string; displayName: string; isDefault: boolean }[];
}) {
  if (browserNote !== null) {
    return (
      <div className="grid">
        <p className="hint printer-note">{browserNote}</p>
      </div>
    );
  }
  return (
    <div className="grid">
      <Field
        label="Printer"
        error={err('printing.systemPrinterName')}
        hint="The computer’s default printer when none is chosen."
      >
        {(id, d) => (
          <select
            id={id}
            aria-describedby={d}
            value={printing.systemPrinterName}
            onChange={(e) => up({ systemPrinterName: e.target.value })}
          >
            <option value="">The default printer</option>
            {printers.map((p) => (
              <option key={p.name} value={p.name}>
                {p.displayName}
                {p.isDefault ? ' (default)' : ''}
              </option>
            ))}
          </select>
        )}
      </Field>
      <label className="check">
        <input
          type="checkbox"
          checked={printing.systemSilent}
          onChange={(e) => up({ systemSilent: e.target.checked })}
        />
        Print straight away (no print window)
      </label>
    </div>
  );
}

/** An ESC/POS printer on the network (raw TCP). */
export function NetworkPrinterFields({ printing, up, err }: PrintingPartProps) {
  return (
    <div className="grid">
      <Field
        label="Printer address"
        error={err('printing.host')}
        hint="Its IP address or network name, for example 192.168.1.50 (printed on its self-test page)."
      >
        {(id, d) => (
          <input
            id={id}
            aria-describedby={d}
            aria-invalid={!!err('printing.host')}
            value={printing.host}
            onChange={(e) => up({ host: e.target.value })}
            autoComplete="off"
            spellCheck={false}
          />
        )}
      </Field>
      <Field label="Port" error={err('printing.port')} hint="Nearly always 9100.">
        {(id, d) => (
          <input
            id={id}
            aria-describedby={d}
            aria-invalid={!!err('printing.port')}
            inputMode="numeric"
            value={printing.port}
            onChange={(e) => up({ port: e.target.value })}
          />
        )}
      </Field>
    </div>
  );
}

/** An ESC/POS printer on a serial port: the ports on offer are listed when this part is shown. */
export function SerialPrinterFields({ printing, up, err }: PrintingPartProps) {
  const [ports, setPorts] = useState<SerialPortInfo[]>([]);
  const loadPorts = () => void call('terminal.listPorts', {}).then(setPorts, () => setPorts([]));
  useEffect(loadPorts, []);
  const chosenMissing = printing.serialPath !== '' && !ports.some((p) => p.path === printing.serialPath);
  return (
    <div className="grid">
      <Field
        label="Serial port"
        error={err('printing.serialPath')}
        hint="The port the printer’s cable is in (COM3, /dev/ttyUSB0)."
      >
        {(id, d) => (
          <div className="with-button">
            <select
              id={id}
              aria-describedby={d}
              aria-invalid={!!err('printing.serialPath')}
              value={printing.serialPath}
              onChange={(e) => up({ serialPath: e.target.value })}
            >
              <option value="">Choose a port…</option>
              {chosenMissing && <option value={printing.serialPath}>{printing.serialPath}</option>}
              {ports.map((p) => (
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
          <select
            id={id}
            aria-describedby={d}
            value={printing.baudRate}
            onChange={(e) => up({ baudRate: e.target.value })}
          >
            {SERIAL_BAUD_RATES.map((b) => (
              <option key={b} value={String(b)}>
                {b} baud
              </option>
            ))}
          </select>
        )}
      </Field>
    </div>
  );
}

/** Paper width, copies and printing by itself: the same for every kind of printer. */
export function PaperFields({ printing, up, err }: PrintingPartProps) {
  return (
    <>
      <div className="grid">
        <div className="field">
          <span className="field-label" id="paper-label">
            Paper width
          </span>
          <div className="segmented" role="group" aria-labelledby="paper-label">
            {PAPER_WIDTHS.map((w) => (
              <button key={w} type="button" aria-pressed={printing.paper === w} onClick={() => up({ paper: w })}>
                {w} mm
              </button>
            ))}
          </div>
        </div>
        <Field
          label="Copies of each receipt"
          error={err('printing.copies')}
          hint={`1 to ${MAX_COPIES}: each copy is cut off on its own.`}
        >
          {(id, d) => (
            <input
              id={id}
              aria-describedby={d}
              aria-invalid={!!err('printing.copies')}
              inputMode="numeric"
              value={printing.copies}
              onChange={(e) => up({ copies: e.target.value })}
            />
          )}
        </Field>
      </div>
      <label className="check">
        <input type="checkbox" checked={printing.autoPrint} onChange={(e) => up({ autoPrint: e.target.checked })} />
        Print the receipt by itself as soon as a payment is paid
      </label>
    </>
  );
}

/** What every receipt says about the cinema. */
export function CinemaFields({
  cinema,
  upCinema,
  err,
}: {
  cinema: CinemaSettings;
  upCinema(patch: Partial<CinemaSettings>): void;
  err(key: string): string | undefined;
}) {
  const text = (key: keyof CinemaSettings, label: string) => (
    <Field label={label} error={err(`cinema.${key}`)}>
      {(id, d) => (
        <input
          id={id}
          aria-describedby={d}
          aria-invalid={!!err(`cinema.${key}`)}
          value={cinema[key]}
          onChange={(e) => upCinema({ [key]: e.target.value })}
        />
      )}
    </Field>
  );
  return (
    <>
      <h3>On every receipt</h3>
      <div className="grid">
        {text('name', 'Cinema name')}
        {text('branch', 'Branch (optional)')}
        {text('footer', 'Last line (optional)')}
      </div>
    </>
  );
}
