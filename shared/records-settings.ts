// The counter's printer and cinema settings as both sides see them: the printer's kind, paper,
// target and copies with their checks, the cinema's name and lines on the receipt, and the records
// settings' view (shared/records.ts re-exports this file). zod only.
import { z } from 'zod';

export const PRINTER_KINDS = ['system', 'network', 'serial'] as const;
export const PrinterKind = z.enum(PRINTER_KINDS);
export type PrinterKind = z.infer<typeof PrinterKind>;
export const PRINTER_KIND_LABELS: Record<PrinterKind, string> = {
  system: 'System printer (the computer’s printers)',
  network: 'Network receipt printer (ESC/POS, TCP)',
  serial: 'Serial receipt printer (ESC/POS, COM port)',
};

/** Paper roll width in millimetres. */
export const PAPER_WIDTHS = ['58', '80'] as const;
export const PaperWidth = z.enum(PAPER_WIDTHS);
export type PaperWidth = z.infer<typeof PaperWidth>;

export const SERIAL_BAUD_RATES = [9600, 19200, 38400, 57600, 115200] as const;
export const MAX_COPIES = 5;

const HOST_RE =
  /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?)*$/;

/**
 * The checks that depend on the kind of printer. Also run by the settings store on input that
 * failed elsewhere, so every wrong field is named at once.
 */
export function printerTargetIssues(s: {
  kind?: unknown;
  host?: unknown;
  serialPath?: unknown;
}): { path: string[]; message: string }[] {
  const host = typeof s.host === 'string' ? s.host.trim() : '';
  const serialPath = typeof s.serialPath === 'string' ? s.serialPath.trim() : '';
  const out: { path: string[]; message: string }[] = [];
  if (s.kind === 'network') {
    const bad = (message: string) => out.push({ path: ['host'], message });
    if (host === '') bad('Enter the printer’s address, for example 192.168.1.50');
    else if (/^[a-z]+:\/\//i.test(host)) bad('Enter only the address, without http:// (for example 192.168.1.50)');
    else if (/:\d+$/.test(host)) bad('Enter the port in the Port field, not after the address');
    else if (!HOST_RE.test(host))
      bad('This is not a printer address: use an IP like 192.168.1.50 or a name like printer-1');
  }
  if (s.kind === 'serial' && serialPath === '')
    out.push({
      path: ['serialPath'],
      message: 'Choose the serial port of the printer (for example COM3 or /dev/ttyUSB0)',
    });
  return out;
}

const wholeNumber = (what: string, min: number, max: number) =>
  z.coerce
    .number({ error: `Enter the ${what} (${min} to ${max})` })
    .int(`The ${what} is a whole number from ${min} to ${max}`)
    .min(min, `The ${what} is a whole number from ${min} to ${max}`)
    .max(max, `The ${what} is a whole number from ${min} to ${max}`);

export const PrinterSettingsSchema = z
  .object({
    kind: PrinterKind.default('system'),
    /** The system printer's name; '' prints to the computer's default printer. */
    systemPrinterName: z.string().trim().max(200, 'At most 200 characters').default(''),
    /** Print without the print dialog (Electron); off shows the dialog each time. */
    systemSilent: z.boolean().default(true),
    host: z.string().trim().max(253, 'At most 253 characters').default(''),
    port: wholeNumber('port', 1, 65535).default(9100),
    serialPath: z.string().trim().max(200, 'At most 200 characters').default(''),
    baudRate: z.coerce
      .number({ error: 'Choose the speed of the serial printer' })
      .refine(
        (v) => (SERIAL_BAUD_RATES as readonly number[]).includes(v),
        `Choose one of ${SERIAL_BAUD_RATES.join(', ')} baud`,
      )
      .default(9600),
    paper: PaperWidth.default('80'),
    autoPrint: z.boolean().default(false),
    copies: wholeNumber('number of copies', 1, MAX_COPIES).default(1),
  })
  .superRefine((s, ctx) => {
    for (const i of printerTargetIssues(s)) ctx.addIssue({ code: 'custom', ...i });
  });
export type PrinterSettings = z.infer<typeof PrinterSettingsSchema>;

export const CinemaSettingsSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'Enter the cinema’s name as the receipt should show it')
    .max(48, 'At most 48 characters')
    .default('Cinema'),
  branch: z.string().trim().max(48, 'At most 48 characters').default(''),
  /** A last line on every receipt, for example "Thank you. Enjoy the film!". */
  footer: z.string().trim().max(120, 'At most 120 characters').default('Thank you. Enjoy the film!'),
});
export type CinemaSettings = z.infer<typeof CinemaSettingsSchema>;

/** What the admin is told when a receipt setting needs fixing. */
export const RECEIPT_SETTINGS_INVALID = 'Some receipt settings need fixing; nothing was saved.';

export function defaultPrinterSettings(): PrinterSettings {
  return PrinterSettingsSchema.parse({});
}
export function defaultCinemaSettings(): CinemaSettings {
  return CinemaSettingsSchema.parse({});
}

export const RecordsSettingsViewSchema = z.object({
  printing: PrinterSettingsSchema,
  cinema: CinemaSettingsSchema,
  /** Whether this shell can print to system printers by itself (Electron) or leaves it to the browser. */
  systemPrinting: z.object({ available: z.boolean(), note: z.string() }),
});
export type RecordsSettingsView = z.infer<typeof RecordsSettingsViewSchema>;

export const SystemPrinterInfoSchema = z.object({ name: z.string(), displayName: z.string(), isDefault: z.boolean() });
export type SystemPrinterInfo = z.infer<typeof SystemPrinterInfoSchema>;
