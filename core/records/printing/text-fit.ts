// Text for a thermal printer's character grid: plain ASCII (the printer's default code page has
// no ₦, no curly quotes), wrapped into columns, padded to the right width.

const REPLACEMENTS: [RegExp, string][] = [
  [/₦\s?/g, 'N'],
  [/[‘’‚′]/g, "'"],
  [/[“”„″]/g, '"'],
  [/[‐‑‒–—―]/g, '-'],
  [/[×]/g, 'x'],
  [/[·•]/g, '-'],
  [/…/g, '...'],
  [/[\u00a0\u2007\u202f]/g, ' '],
];

/** Anything a cashier or the provider wrote, as printable ASCII (accents dropped, the rest '?'). */
export function toPrinterText(input: string): string {
  let s = input;
  for (const [re, to] of REPLACEMENTS) s = s.replace(re, to);
  s = s.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
  return s.replace(/[\r\n\t]+/g, ' ').replace(/[^\x20-\x7e]/g, '?');
}

/** Words into lines of at most `width` characters; a word longer than a line is cut. */
export function wrap(text: string, width: number): string[] {
  const out: string[] = [];
  let line = '';
  for (const word of text.split(' ').filter((w) => w !== '')) {
    let w = word;
    if (line !== '' && line.length + 1 + w.length <= width) {
      line += ' ' + w;
      continue;
    }
    if (line !== '') out.push(line);
    while (w.length > width) {
      out.push(w.slice(0, width));
      w = w.slice(width);
    }
    line = w;
  }
  if (line !== '' || out.length === 0) out.push(line);
  return out;
}

/** A label and its value on one line when they fit, else the label then the value right-aligned below. */
export function pairLines(label: string, value: string, width: number): string[] {
  if (label.length + 1 + value.length <= width)
    return [label + ' '.repeat(width - label.length - value.length) + value];
  return [...wrap(label, width), ...wrap(value, width).map((l) => l.padStart(width))];
}
