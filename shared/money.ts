// Money at the edges: integer kobo inside, exact decimal strings outside. No floating point.

export type Kobo = number;

export class MoneyFormatError extends Error {
  readonly code = 'MONEY_FORMAT';
  constructor(message: string) {
    super(message);
    this.name = 'MoneyFormatError';
  }
}

const NAIRA_RE = /^(\d{1,13})(?:\.(\d{1,2}))?$/;

/** Parses a Naira amount as people type it ("1,500", "1500.5", "₦1,500.00") into kobo, exactly. */
export function parseNaira(input: string): Kobo {
  const cleaned = input
    .trim()
    .replace(/^₦\s*/, '')
    .replace(/,(?=\d{3}(\D|$))/g, '');
  const m = NAIRA_RE.exec(cleaned);
  if (!m) throw new MoneyFormatError(`"${input}" is not an amount in naira (for example 1500 or 1500.50)`);
  const naira = Number(m[1]);
  const kobo = Number((m[2] ?? '').padEnd(2, '0'));
  const total = naira * 100 + kobo;
  if (!Number.isSafeInteger(total)) throw new MoneyFormatError(`"${input}" is too large`);
  return total;
}

/** Kobo to the provider's POS form: Naira with exactly two decimals ("3500.00"). */
export function koboToNairaString(kobo: Kobo): string {
  assertKobo(kobo);
  const sign = kobo < 0 ? '-' : '';
  const abs = Math.abs(kobo);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** A wire Naira string ("3500", "3500.5", "3500.00") to kobo; throws on anything else. */
export function nairaStringToKobo(value: string): Kobo {
  const m = /^(-?)(\d{1,13})(?:\.(\d{1,2}))?$/.exec(value.trim());
  if (!m) throw new MoneyFormatError(`"${value}" is not a Naira amount with at most two decimals`);
  const total = Number(m[2]) * 100 + Number((m[3] ?? '').padEnd(2, '0'));
  return m[1] === '-' ? -total : total;
}

/** Kobo to the bills wire form: a string of an integer number of kobo. */
export function koboToWire(kobo: Kobo): string {
  assertKobo(kobo);
  return String(kobo);
}

/** Bills wire kobo ("50000" or 50000) to kobo; throws unless a whole, non-negative number. */
export function wireToKobo(value: string | number): Kobo {
  const s = String(value).trim();
  if (!/^\d{1,15}$/.test(s)) throw new MoneyFormatError(`"${s}" is not a whole number of kobo`);
  return Number(s);
}

function assertKobo(kobo: number): void {
  if (!Number.isSafeInteger(kobo)) throw new MoneyFormatError(`${kobo} is not a whole number of kobo`);
}

const ngn = new Intl.NumberFormat('en-NG', { style: 'currency', currency: 'NGN', minimumFractionDigits: 2 });

/** "₦3,500.00" */
export function formatNaira(kobo: Kobo): string {
  assertKobo(kobo);
  // Formatting a value with at most two decimals is exact for safe integers / 100.
  return ngn.format(kobo / 100);
}
