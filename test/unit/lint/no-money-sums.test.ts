// Screens display money; they never add it up (issue 25, "one ledger"): every figure comes from the
// engine or from shared/ledger.ts. This reads every source file of the counter's renderer and of
// the Hub's dashboard and fails on a sum of money: a `.reduce(` that adds amounts, or `+`/`-`/`+=`
// with an operand named like money (`…Kobo`, `amount…`, `…Naira`). The detector is itself tested
// on the sums that were there before (ShiftFigures' own "taken", Today's last-week total).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../../..');
/** The screens, and the Hub's store: its SQL sums the columns the ledger projected, its TypeScript adds nothing. */
const ROOMS = ['renderer/src', 'hub/dashboard/src', 'hub/store'];

const MONEY = String.raw`[A-Za-z_$][\w$]*(?:Kobo|Naira|Fee|Price)\b|\bamount[A-Z]?[\w$]*|\b(?:kobo|fee|price)\b`;
/** An operand: a name, a member chain, or a call's result, e.g. `t.paid.amountKobo`, `p[0].totalKobo`. */
const OPERAND = String.raw`[\w$.\]\[?!]*`;
const RULES: { what: string; re: RegExp }[] = [
  { what: 'a .reduce( that adds money', re: new RegExp(String.raw`\.reduce\s*\([^;]*?\+[^;]*?(?:${MONEY})`, 's') },
  { what: 'a price multiplied', re: new RegExp(String.raw`(?:${MONEY})\s*\*(?!\*)|\*\s*${OPERAND}(?:${MONEY})`) },
  {
    what: 'money on the left of + or -',
    re: new RegExp(String.raw`(?:${OPERAND}(?:${MONEY}))\s*(?:\+=|-=|\+(?!\+)|-(?!-|>))\s*[\w$(]`),
  },
  {
    what: 'money on the right of + or -',
    re: new RegExp(String.raw`[\w$)\]]\s*(?:\+=|-=|\+(?!\+)|(?<![-<])-(?!-|>))\s*${OPERAND}(?:${MONEY})`),
  },
];

/** Comments and string contents out, template literals' text too (their `${…}` code stays). */
function codeOf(src: string): string {
  return (
    src
      .replace(/\/\*[\s\S]*?\*\//g, ' ')
      .replace(/(^|[^:])\/\/[^\n]*/g, '$1')
      .replace(/'(?:\\.|[^'\\\n])*'/g, "''")
      .replace(/"(?:\\.|[^"\\\n])*"/g, '""')
      .replace(/`(?:\\.|\$\{[^}]*\}|[^`\\])*`/g, (t) => t.replace(/(^`|\}|^)[^$`]*?(?=\$\{|`$)/g, '$1'))
      // JSX text between tags ("Booking fees + …") is words, not code.
      .replace(/>([^<>{}]*)</g, '><')
  );
}

export function moneySums(src: string): string[] {
  const code = codeOf(src);
  const found: string[] = [];
  for (const { what, re } of RULES) {
    const g = new RegExp(re.source, re.flags.includes('g') ? re.flags : `${re.flags}g`);
    for (const m of code.matchAll(g)) found.push(`${what}: ${m[0].replace(/\s+/g, ' ').slice(0, 120)}`);
  }
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return sourceFiles(p);
    return /\.(ts|tsx)$/.test(name) && !/\.d\.ts$/.test(name) ? [p] : [];
  });
}

describe('no screen adds up money', () => {
  it.each([
    [
      'ShiftFigures before the ledger',
      'const taken = { count: t.paid.count + t.paidLate.count, amountKobo: t.paid.amountKobo + t.paidLate.amountKobo };',
    ],
    ["Today's last-week total", 'const lw = v.hourly.reduce((a, p) => a + p.lastWeekPaidKobo, 0);'],
    ['a running total', 'total += row.amountKobo;'],
    ['a sale total', 'return { totalKobo: ticketsKobo + bookingFeeKobo };'],
    ['a difference', 'const due = s.totalKobo - s.refundKobo;'],
    ['a sum of amounts', 'const sum = items.reduce((n, i) => n + i.amount, 0);'],
    ['a fee added to a short name (sale-form.ts before saleAmounts)', 'totalKobo = t + saleFee;'],
    ['tickets times a price', 'const t = tickets * price;'],
  ])('the detector finds %s', (_name, code) => {
    expect(moneySums(code)).not.toEqual([]);
  });

  it.each([
    ['a count', 'const n = t.paid.count + t.paidLate.count;'],
    ['a chart coordinate', 'const h = 10 + plotH - y(p.lastWeekPaidKobo);'],
    ['money displayed', '<dd>{formatNaira(t.card.amountKobo)} ({t.card.count})</dd>'],
    ['words in a label', "const label = 'Booking fees + provider fees (Kobo)';"],
    ['words in JSX', '<p>Paid + sold earlier - refunds amountKobo</p>'],
    ['a template', 'const s = `${formatNaira(a.amountKobo)} + fee`;'],
  ])('and leaves alone %s', (_name, code) => {
    expect(moneySums(code)).toEqual([]);
  });

  it('no file under renderer/, hub/dashboard/ or hub/store/ sums money', () => {
    const offenders: string[] = [];
    for (const room of ROOMS) {
      for (const file of sourceFiles(join(ROOT, room))) {
        for (const hit of moneySums(readFileSync(file, 'utf8'))) offenders.push(`${relative(ROOT, file)}: ${hit}`);
      }
    }
    expect(offenders, 'Compute the figure in the engine or shared/ledger.ts and display it').toEqual([]);
  });
});
