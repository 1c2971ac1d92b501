// The counter's POS terminal as the app knows it: its settings (serial port, query, the pattern that
// finds the serial number in a reply, or a serial number typed by hand) and the live link state.
import { z } from 'zod';
import { issueFields } from './errors';

/** Serial numbers are 6 to 32 letters, digits and dashes, with at least one letter or digit. */
const SN_MIN_LENGTH = 6;
const SN_MAX_LENGTH = 32;
const SN_CHARS = /^[A-Za-z0-9-]*$/;

/** Rates every serial driver offers; terminals ship at 115200 or 9600. */
export const STANDARD_BAUD_RATES = [1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200, 230400] as const;
type BaudRate = (typeof STANDARD_BAUD_RATES)[number];
const DEFAULT_BAUD_RATE: BaudRate = 115200;

/**
 * Written to the terminal to ask for its serial number; stored with real CR/LF.
 * @internal for tests
 */
export const DEFAULT_SN_QUERY = 'SN?\r\n';
const SN_QUERY_MAX_LENGTH = 64;

/**
 * How the serial number is found in a line from the terminal. Not a regular expression: a user
 * regex can backtrack exponentially and freeze the main process on one line of noise. A format is
 * either `auto` (the built-in one below) or literal text with `{sn}` once where the serial number
 * stands (`TID={sn};OK`), matched in one pass by comparing the text before and after it.
 *
 * `auto` accepts `SN:<sn>`, `SN=<sn>` (any case, spaces around the separator) or a bare line of
 * 6-32 letters, digits and dashes holding a digit, so a status word such as "WELCOME" or
 * "CONNECTED" is never taken for a serial number.
 */
export const DEFAULT_SN_PATTERN = 'auto';
export const SN_PLACEHOLDER = '{sn}';
const SN_PATTERN_MAX_LENGTH = 64;
/**
 * The regular expression older versions stored as their default; it means `auto`.
 * @internal for tests
 */
export const LEGACY_DEFAULT_SN_REGEX = String.raw`^(?:[Ss][Nn]\s*[:=]\s*|(?=[A-Za-z-]*[0-9]))([A-Za-z0-9-]{6,32})$`;

const TERMINAL_SOURCES = ['serial', 'manual'] as const;
export const TerminalSource = z.enum(TERMINAL_SOURCES);
export type TerminalSource = z.infer<typeof TerminalSource>;

const TERMINAL_STATUSES = ['disconnected', 'connecting', 'connected', 'manual'] as const;
export const TerminalStatus = z.enum(TERMINAL_STATUSES);
export type TerminalStatus = z.infer<typeof TerminalStatus>;

/** Why `input` is not a serial number, or null when it is one (the caller trims first). */
function snProblem(sn: string): string | null {
  if (sn.length === 0) return "Enter the terminal's serial number (printed on the label under the terminal)";
  const bad = [...sn].find((c) => !SN_CHARS.test(c));
  if (bad !== undefined) {
    if (/\s/.test(bad)) return 'Type the serial number without spaces: letters, digits and - only';
    const shown = /^[\x21-\x7e]$/.test(bad)
      ? `"${bad}"`
      : `character U+${bad.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
    return `${shown} is not allowed: use letters, digits and - only`;
  }
  if (sn.length < SN_MIN_LENGTH)
    return `Too short: a serial number has at least ${SN_MIN_LENGTH} characters (this has ${sn.length})`;
  if (sn.length > SN_MAX_LENGTH)
    return `Too long: a serial number has at most ${SN_MAX_LENGTH} characters (this has ${sn.length})`;
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

/** Why a serial number format cannot be used, or null when it can. */
export function snPatternProblem(source: string): string | null {
  if (source.length === 0) return 'Enter a format, for example SN:{sn}, or auto';
  if (source.length > SN_PATTERN_MAX_LENGTH) return `At most ${SN_PATTERN_MAX_LENGTH} characters`;
  if (source === DEFAULT_SN_PATTERN) return null;
  if (!/^[\x20-\x7e]*$/.test(source)) return 'Only printable characters (letters, digits, punctuation, spaces)';
  const at = source.indexOf(SN_PLACEHOLDER);
  const rest = at < 0 ? source : source.slice(0, at) + source.slice(at + SN_PLACEHOLDER.length);
  if (at < 0 || rest.includes('{') || rest.includes('}')) {
    return 'Write the text the terminal sends with {sn} exactly once where the serial number stands, for example SN:{sn} (or auto)';
  }
  return null;
}

/** A format saved by an older version (a regular expression) becomes a usable format. */
export function upgradeSnPattern<T extends string | undefined>(saved: T): T | typeof DEFAULT_SN_PATTERN {
  if (saved === undefined) return saved;
  if (saved === LEGACY_DEFAULT_SN_REGEX) return DEFAULT_SN_PATTERN;
  return snPatternProblem(saved) === null ? saved : DEFAULT_SN_PATTERN;
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
    .string({ error: 'Enter a format' })
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
  return { ok: false, fields: issueFields(r.error.issues, { root: '_' }) };
}

/**
 * The arguments of terminal.configure: only the fields above, each of a sane type and size. Absent
 * fields keep their current value; each value is then checked field by field by
 * parseTerminalSettings, so its message lands next to the field.
 */
export const TerminalConfigureArgsSchema = z
  .object({
    portPath: z.string().max(256).nullable(),
    baudRate: z.union([z.number().int(), z.string().max(12)]),
    query: z.string().max(SN_QUERY_MAX_LENGTH * 2),
    pattern: z.string().max(SN_PATTERN_MAX_LENGTH * 2),
    manualSn: z
      .string()
      .max(SN_MAX_LENGTH * 4)
      .nullable(),
    source: TerminalSource,
  })
  .partial()
  .strict();

/** Changes that reach a serial device or decide how its answers are read: the admin's to make. */
const TERMINAL_ADMIN_FIELDS = ['portPath', 'baudRate', 'query', 'pattern'] as const;

export function terminalAdminChanges(prev: TerminalSettings, next: TerminalSettings): string[] {
  return TERMINAL_ADMIN_FIELDS.filter((k) => prev[k] !== next[k]);
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
