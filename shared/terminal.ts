// The counter's POS terminal as the app knows it: its settings (serial port, query, the pattern that
// finds the serial number in a reply, or a serial number typed by hand) and the live link state.
import { z } from 'zod';

/** Serial numbers are 6 to 32 letters, digits and dashes, with at least one letter or digit. */
export const SN_MIN_LENGTH = 6;
export const SN_MAX_LENGTH = 32;
const SN_CHARS = /^[A-Za-z0-9-]*$/;

/** Rates every serial driver offers; terminals ship at 115200 or 9600. */
export const STANDARD_BAUD_RATES = [1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200, 230400] as const;
export type BaudRate = (typeof STANDARD_BAUD_RATES)[number];
export const DEFAULT_BAUD_RATE: BaudRate = 115200;

/** Written to the terminal to ask for its serial number; stored with real CR/LF. */
export const DEFAULT_SN_QUERY = 'SN?\r\n';
export const SN_QUERY_MAX_LENGTH = 64;

/**
 * Accepts `SN:<sn>`, `SN=<sn>` (any case, spaces after the separator) or a bare line of 6-32 letters,
 * digits and dashes. A bare line must hold a digit, so a status word such as "WELCOME" or "CONNECTED"
 * is never taken for a serial number.
 */
export const DEFAULT_SN_PATTERN = String.raw`^(?:[Ss][Nn]\s*[:=]\s*|(?=[A-Za-z-]*[0-9]))([A-Za-z0-9-]{6,32})$`;
export const SN_PATTERN_MAX_LENGTH = 200;

export const TERMINAL_SOURCES = ['serial', 'manual'] as const;
export const TerminalSource = z.enum(TERMINAL_SOURCES);
export type TerminalSource = z.infer<typeof TerminalSource>;

export const TERMINAL_STATUSES = ['disconnected', 'connecting', 'connected', 'manual'] as const;
export const TerminalStatus = z.enum(TERMINAL_STATUSES);
export type TerminalStatus = z.infer<typeof TerminalStatus>;

/** Why `input` is not a serial number, or null when it is one (the caller trims first). */
export function snProblem(sn: string): string | null {
  if (sn.length === 0) return "Enter the terminal's serial number (printed on the label under the terminal)";
  const bad = [...sn].find((c) => !SN_CHARS.test(c));
  if (bad !== undefined) {
    if (/\s/.test(bad)) return 'Type the serial number without spaces: letters, digits and - only';
    const shown = /^[\x21-\x7e]$/.test(bad) ? `"${bad}"` : `character U+${bad.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
    return `${shown} is not allowed: use letters, digits and - only`;
  }
  if (sn.length < SN_MIN_LENGTH) return `Too short: a serial number has at least ${SN_MIN_LENGTH} characters (this has ${sn.length})`;
  if (sn.length > SN_MAX_LENGTH) return `Too long: a serial number has at most ${SN_MAX_LENGTH} characters (this has ${sn.length})`;
  if (!/[A-Za-z0-9]/.test(sn)) return 'A serial number needs letters or digits, not only dashes';
  return null;
}

export function isValidSn(sn: string): boolean {
  return snProblem(sn) === null;
}

/** Checks a serial number typed by the cashier or IT: trimmed, case kept, refused with the reason. */
export function validateManualSn(input: unknown): { ok: true; sn: string } | { ok: false; message: string } {
  if (typeof input !== 'string') return { ok: false, message: "Enter the terminal's serial number as text" };
  const sn = input.trim();
  const problem = snProblem(sn);
  return problem === null ? { ok: true, sn } : { ok: false, message: problem };
}

/** Why a user-supplied pattern cannot be used, or null when it compiles and captures the sn. */
export function snPatternProblem(source: string): string | null {
  if (source.length === 0) return 'Enter a pattern';
  if (source.length > SN_PATTERN_MAX_LENGTH) return `At most ${SN_PATTERN_MAX_LENGTH} characters`;
  let probe: RegExpExecArray | null;
  try {
    new RegExp(source);
    // An empty alternative makes the probe match '' so the result lists every group the pattern has.
    probe = new RegExp(`(?:${source})|`).exec('');
  } catch (e) {
    return `Not a valid regular expression: ${e instanceof Error ? e.message : String(e)}`;
  }
  const hasNamed = probe?.groups !== undefined && 'sn' in probe.groups;
  const groupCount = probe ? probe.length - 1 : 0;
  if (!hasNamed && groupCount < 1) return 'The pattern must capture the serial number in ( ) or in a group named sn: (?<sn>...)';
  return null;
}

function isQueryText(v: string): boolean {
  return /^[\x20-\x7e\r\n\t]*$/.test(v);
}

const baudRate = z.coerce
  .number({ error: 'Choose a baud rate' })
  .int('Choose a baud rate from the list')
  .refine((v) => (STANDARD_BAUD_RATES as readonly number[]).includes(v), {
    error: `Choose a standard baud rate: ${STANDARD_BAUD_RATES.join(', ')}`,
  });

export const TerminalSettingsSchema = z.object({
  /** The remembered port; null until one is chosen. */
  portPath: z
    .string({ error: 'Choose a serial port' })
    .trim()
    .min(1, 'Choose a serial port')
    .max(256, 'At most 256 characters')
    .nullable()
    .default(null),
  baudRate: baudRate.default(DEFAULT_BAUD_RATE),
  /** May be empty: then the app only listens for a terminal that announces itself. */
  query: z
    .string({ error: 'Enter the query as text' })
    .max(SN_QUERY_MAX_LENGTH, `At most ${SN_QUERY_MAX_LENGTH} characters`)
    .refine(isQueryText, { error: 'Only printable characters, CR and LF' })
    .default(DEFAULT_SN_QUERY),
  pattern: z
    .string({ error: 'Enter a pattern' })
    .superRefine((v, ctx) => {
      const problem = snPatternProblem(v);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .default(DEFAULT_SN_PATTERN),
  /** Remembered per counter; used when source is 'manual'. */
  manualSn: z
    .string({ error: "Enter the terminal's serial number as text" })
    .trim()
    .superRefine((v, ctx) => {
      const problem = snProblem(v);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .nullable()
    .default(null),
  source: z.enum(TERMINAL_SOURCES, { error: "Choose 'serial' or 'manual'" }).default('serial'),
});
export type TerminalSettings = z.infer<typeof TerminalSettingsSchema>;
export type TerminalSettingsInput = z.input<typeof TerminalSettingsSchema>;

export function defaultTerminalSettings(): TerminalSettings {
  return TerminalSettingsSchema.parse({});
}

/** Parses settings into either the value or one message per field ("baudRate": "Choose ..."). */
export function parseTerminalSettings(
  input: unknown,
): { ok: true; settings: TerminalSettings } | { ok: false; fields: Record<string, string> } {
  const r = TerminalSettingsSchema.safeParse(input);
  if (r.success) return { ok: true, settings: r.data };
  const fields: Record<string, string> = {};
  for (const issue of r.error.issues) {
    const key = issue.path.length ? issue.path.map(String).join('.') : '_';
    fields[key] ??= issue.message;
  }
  return { ok: false, fields };
}

export const TerminalStateSchema = z.object({
  source: TerminalSource,
  status: TerminalStatus,
  portPath: z.string().nullable(),
  /** The sn of the terminal on the open port (cleared when it disconnects), or the manual sn. */
  sn: z.string().nullable(),
  /** What the cashier or IT should fix, in plain words; null when all is well. */
  lastError: z.string().nullable(),
  /** When the terminal last answered with a valid sn (ms epoch). */
  lastSeenAt: z.number().nullable(),
});
export type TerminalState = z.infer<typeof TerminalStateSchema>;

export const SerialPortInfoSchema = z.object({
  path: z.string(),
  manufacturer: z.string().optional(),
  serialNumber: z.string().optional(),
  pnpId: z.string().optional(),
  locationId: z.string().optional(),
  vendorId: z.string().optional(),
  productId: z.string().optional(),
});
export type SerialPortInfo = z.infer<typeof SerialPortInfoSchema>;
