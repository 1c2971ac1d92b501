// Redaction for log records: the second line of defence behind "never pass a secret to a logger".
// Secrets get in by field name (at any depth), inside free text (a PEM block, `clientAuthKey=…`,
// "PIN 1234", a long key-like blob) or as a known value that the app holds (the keys in the vault).

const REDACTED = '[redacted]';

const SECRET_FIELD = /key|secret|pin|token|sign|password|authorization|private|credential|cookie/i;
const MAX_DEPTH = 6;
const MAX_ARRAY = 50;
const MAX_STRING = 4000;

const PEM = /-----BEGIN [A-Z0-9 ]+-----[\s\S]*?(?:-----END [A-Z0-9 ]+-----|$)/g;
// name=value / name: value / "name":"value" where the name says secret.
const NAMED =
  /\b([A-Za-z_]*(?:key|secret|pin|token|password|authorization|signature|credential)[A-Za-z_]*)(\\?["']?\s*[:=]\s*\\?["']?)([^\s"'\\,;&)}\]]+)/gi;
// A PIN said in words: "PIN 4821", "pin: 4821".
const PIN_WORDS = /\b(pin\b\W{0,3})\d{4,12}\b/gi;
// A long run of base64/hex that is not a plain number: keys, signatures, ciphertext.
const BLOB = /[A-Za-z0-9+/_=]{40,}/g;

function scrubBlob(m: string): string {
  return /[A-Za-z]/.test(m) && /\d/.test(m) ? REDACTED : m;
}

/** Masks secret-looking pieces of free text (messages, string values). */
export function scrubText(text: string): string {
  const s =
    text.length > MAX_STRING ? `${text.slice(0, MAX_STRING)}… (${text.length - MAX_STRING} more characters)` : text;
  return s
    .replace(PEM, '[redacted key]')
    .replace(NAMED, (_m, name: string, sep: string) => `${name}${sep}${REDACTED}`)
    .replace(PIN_WORDS, (_m, lead: string) => `${lead}${REDACTED}`)
    .replace(BLOB, scrubBlob);
}

function redactValue(v: unknown, depth: number, seen: WeakSet<object>): unknown {
  if (typeof v === 'string') return scrubText(v);
  if (v === null || typeof v === 'number' || typeof v === 'boolean' || v === undefined) return v;
  if (typeof v === 'bigint') return v.toString();
  if (typeof v !== 'object') return undefined; // functions, symbols: nothing a reader needs
  if (seen.has(v)) return '[circular]';
  if (depth >= MAX_DEPTH) return '[too deep]';
  seen.add(v);
  if (v instanceof Error) {
    const code = (v as { code?: unknown }).code;
    return { name: v.name, message: scrubText(v.message), ...(typeof code === 'string' ? { code } : {}) };
  }
  if (Array.isArray(v)) {
    const out = v.slice(0, MAX_ARRAY).map((x) => redactValue(x, depth + 1, seen));
    if (v.length > MAX_ARRAY) out.push(`… ${v.length - MAX_ARRAY} more`);
    return out;
  }
  if (v instanceof Date) return v.toISOString();
  if (ArrayBuffer.isView(v)) return `[${v.byteLength} bytes]`;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) out[k] = SECRET_FIELD.test(k) ? REDACTED : redactValue(x, depth + 1, seen);
  return out;
}

/** Redacts a record's fields: secret-named keys at any depth, secret-looking text anywhere. */
export function redact(fields: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!fields) return fields;
  return redactValue(fields, 0, new WeakSet()) as Record<string, unknown>;
}

/**
 * Replaces every occurrence of the known secret values in an already-serialised line, both as
 * written and as JSON escapes them (a PEM key's newlines become `\n`).
 */
export function scrubKnown(line: string, secrets: readonly string[]): string {
  let out = line;
  for (const raw of secrets) {
    const s = raw.trim();
    if (s.length < 6) continue; // too short to be a key; would mask ordinary words
    const forms = new Set([s, JSON.stringify(s).slice(1, -1)]);
    // A PEM key's base64 lines, one by one: a key pasted in pieces is still a key.
    for (const part of s.split(/\r?\n/)) if (part.length >= 16 && !part.startsWith('-----')) forms.add(part);
    for (const f of forms) if (out.includes(f)) out = out.split(f).join(REDACTED);
  }
  return out;
}
