// The text of a PDF as Chromium (Skia) writes it, line by line from the top: enough of PDF to check
// what a printed receipt says without a PDF library. Objects with direct lengths, Flate streams,
// Type0 fonts with a ToUnicode CMap (bfchar and bfrange), text shown with Tj and TJ after a Tm.
import { inflateSync } from 'node:zlib';

interface PdfObject {
  dict: string;
  stream: Buffer | null;
}

function objectsOf(pdf: Buffer): Map<number, PdfObject> {
  const text = pdf.toString('latin1');
  const out = new Map<number, PdfObject>();
  const re = /(\d+) 0 obj\s*/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const start = m.index + m[0].length;
    const end = text.indexOf('endobj', start);
    const body = text.slice(start, end);
    const s = /stream\r?\n/.exec(body);
    if (!s) {
      out.set(Number(m[1]), { dict: body, stream: null });
      continue;
    }
    const dict = body.slice(0, s.index);
    const length = Number(/\/Length (\d+)/.exec(dict)?.[1]);
    const from = start + s.index + s[0].length;
    const raw = pdf.subarray(from, from + length);
    out.set(Number(m[1]), { dict, stream: dict.includes('/FlateDecode') ? inflateSync(raw) : raw });
    re.lastIndex = from + length;
  }
  return out;
}

const ref = (dict: string, key: string): number | null => {
  const m = new RegExp(`/${key} (\\d+) 0 R`).exec(dict);
  return m ? Number(m[1]) : null;
};

const utf16 = (hex: string): string => String.fromCharCode(...(hex.match(/.{4}/g) ?? []).map((h) => parseInt(h, 16)));

/** A font's ToUnicode CMap: glyph code (4 hex digits) → text. */
function cmapOf(cmap: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const block of cmap.matchAll(/beginbfchar([\s\S]*?)endbfchar/g))
    for (const [, code, to] of block[1]!.matchAll(/<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>/g))
      map.set(code!.toUpperCase(), utf16(to!));
  for (const block of cmap.matchAll(/beginbfrange([\s\S]*?)endbfrange/g))
    for (const [, lo, hi, to] of block[1]!.matchAll(/<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>/g)) {
      const first = parseInt(to!, 16);
      for (let c = parseInt(lo!, 16); c <= parseInt(hi!, 16); c++)
        map.set(c.toString(16).toUpperCase().padStart(4, '0'), String.fromCharCode(first + c - parseInt(lo!, 16)));
    }
  return map;
}

/** The PDF's text, one string per line of the page(s), top to bottom; pieces of one line joined by a space. */
export function pdfText(pdf: Buffer): string[] {
  const objs = objectsOf(pdf);
  const lines: string[] = [];
  for (const page of [...objs.values()].filter((o) => /\/Type \/Page\b/.test(o.dict))) {
    const fonts = new Map<string, Map<string, string>>();
    for (const [, name, n] of /\/Font <<([\s\S]*?)>>/.exec(page.dict)?.[1]!.matchAll(/\/(\w+) (\d+) 0 R/g) ?? []) {
      const cmap = objs.get(ref(objs.get(Number(n))!.dict, 'ToUnicode') ?? -1)?.stream;
      fonts.set(name!, cmap ? cmapOf(cmap.toString('latin1')) : new Map());
    }
    const content = objs.get(ref(page.dict, 'Contents')!)!.stream!.toString('latin1');
    const rows = new Map<number, { x: number; text: string }[]>();
    for (const [, bt] of content.matchAll(/BT\n([\s\S]*?)\nET/g)) {
      const font = fonts.get(/\/(\w+) [\d.]+ Tf/.exec(bt!)?.[1] ?? '') ?? new Map<string, string>();
      const tm = /([-\d.]+) ([-\d.]+) Tm/.exec(bt!);
      const [x, y] = tm ? [Number(tm[1]), Math.round(Number(tm[2]))] : [0, 0];
      let text = '';
      for (const [, hex] of bt!.matchAll(/<([0-9A-Fa-f]+)>/g))
        for (const code of hex!.toUpperCase().match(/.{4}/g) ?? []) text += font.get(code) ?? '?';
      const row = rows.get(y) ?? [];
      row.push({ x, text });
      rows.set(y, row);
    }
    for (const y of [...rows.keys()].sort((a, b) => a - b))
      lines.push(
        rows
          .get(y)!
          .sort((a, b) => a.x - b.x)
          .map((p) => p.text)
          .join(' '),
      );
  }
  return lines;
}
