// ESC/POS bytes for thermal receipt printers (Epson TM and the many printers that copy them):
// text with emphasis, size and alignment, the printer's own QR code (GS ( k), and a paper cut.
import type { PaperWidth } from '../../../shared/records';
import type { Block, PrintDoc } from './print-doc';
import { pairLines, toPrinterText, wrap } from './text-fit';

const ESC = 0x1b;
const GS = 0x1d;
const LF = 0x0a;

/** Characters per line in font A (12x24 dots): 384 dots on 58 mm paper, 576 dots on 80 mm. */
export const COLUMNS: Record<PaperWidth, number> = { '58': 32, '80': 48 };
/** Font B (9x17 dots) for fine print. */
const SMALL_COLUMNS: Record<PaperWidth, number> = { '58': 42, '80': 64 };
/** QR module size in dots: about 25 mm wide for a short order number either way. */
const QR_MODULE: Record<PaperWidth, number> = { '58': 5, '80': 6 };

const CMD = {
  init: [ESC, 0x40],
  alignLeft: [ESC, 0x61, 0],
  alignCenter: [ESC, 0x61, 1],
  boldOn: [ESC, 0x45, 1],
  boldOff: [ESC, 0x45, 0],
  /** GS ! n: width and height multipliers in the high and low nibbles. */
  sizeNormal: [GS, 0x21, 0x00],
  sizeDoubleHeight: [GS, 0x21, 0x01],
  sizeDouble: [GS, 0x21, 0x11],
  reverseOn: [GS, 0x42, 1],
  reverseOff: [GS, 0x42, 0],
  fontA: [ESC, 0x4d, 0],
  fontB: [ESC, 0x4d, 1],
  /** Feed n lines (ESC d n). */
  feed: (n: number) => [ESC, 0x64, n],
  /** GS V 66 0: feed to the cutter and cut, leaving a hinge (partial cut). */
  cut: [GS, 0x56, 66, 0],
} as const;

/**
 * GS ( k: model 2, module size, error correction M, store the data, print it.
 * @internal for tests
 */
export function qrCommands(data: string, moduleSize: number): number[] {
  const bytes = [...Buffer.from(toPrinterText(data), 'ascii')];
  const len = bytes.length + 3;
  return [
    GS,
    0x28,
    0x6b,
    4,
    0,
    0x31,
    0x41,
    0x32,
    0x00,
    GS,
    0x28,
    0x6b,
    3,
    0,
    0x31,
    0x43,
    moduleSize,
    GS,
    0x28,
    0x6b,
    3,
    0,
    0x31,
    0x45,
    0x31,
    GS,
    0x28,
    0x6b,
    len % 256,
    Math.floor(len / 256),
    0x31,
    0x50,
    0x30,
    ...bytes,
    GS,
    0x28,
    0x6b,
    3,
    0,
    0x31,
    0x51,
    0x30,
  ];
}

interface Style {
  align: 'left' | 'center';
  bold: boolean;
  size: 'normal' | 'tall' | 'double';
  small: boolean;
  reverse: boolean;
}
const PLAIN: Style = { align: 'left', bold: false, size: 'normal', small: false, reverse: false };

/** The job's bytes; styles are sent only when they change, so the job stays short and readable in a hex dump. */
class Bytes {
  readonly out: number[] = [];
  private cur: Style = { ...PLAIN };

  cmd(...parts: readonly (readonly number[])[]): this {
    for (const p of parts) this.out.push(...p);
    return this;
  }

  style(want: Partial<Style>): this {
    const s: Style = { ...PLAIN, ...want };
    const c = this.cur;
    if (s.align !== c.align) this.cmd(s.align === 'center' ? CMD.alignCenter : CMD.alignLeft);
    if (s.bold !== c.bold) this.cmd(s.bold ? CMD.boldOn : CMD.boldOff);
    if (s.size !== c.size)
      this.cmd(s.size === 'double' ? CMD.sizeDouble : s.size === 'tall' ? CMD.sizeDoubleHeight : CMD.sizeNormal);
    if (s.small !== c.small) this.cmd(s.small ? CMD.fontB : CMD.fontA);
    if (s.reverse !== c.reverse) this.cmd(s.reverse ? CMD.reverseOn : CMD.reverseOff);
    this.cur = s;
    return this;
  }

  line(text: string): this {
    this.out.push(...Buffer.from(toPrinterText(text), 'ascii'), LF);
    return this;
  }

  lines(texts: string[]): this {
    for (const t of texts) this.line(t);
    return this;
  }
}

function block(b: Bytes, blk: Block, paper: PaperWidth): void {
  const cols = COLUMNS[paper];
  const text = (s: string) => toPrinterText(s);
  switch (blk.t) {
    case 'title':
      b.style({ align: 'center', bold: true, size: 'double' }).lines(wrap(text(blk.text), cols / 2));
      return;
    case 'center':
      b.style({ align: 'center', bold: !!blk.bold }).lines(wrap(text(blk.text), cols));
      return;
    case 'banner':
      // Double width and height, reversed: half the columns, each line padded to the full width.
      b.style({ align: 'center', bold: true, size: 'double', reverse: true }).lines(
        wrap(text(blk.text), cols / 2 - 2).map((l) => ` ${l} `),
      );
      return;
    case 'mark':
      b.style({ align: 'center', bold: true, size: 'tall', reverse: true }).lines(
        wrap(text(blk.text), cols - 2).map((l) => ` ${l} `),
      );
      return;
    case 'rule':
      b.style({}).line((blk.double ? '=' : '-').repeat(cols));
      return;
    case 'pair':
      b.style({ bold: !!blk.bold }).lines(pairLines(text(blk.label), text(blk.value), cols));
      return;
    case 'total':
      b.style({ bold: true, size: 'tall' }).lines(pairLines(text(blk.label), text(blk.value), cols));
      return;
    case 'heading':
      b.style({ bold: true }).lines(wrap(text(blk.text), cols));
      return;
    case 'text':
      b.style({ bold: !!blk.bold }).lines(wrap(text(blk.text), cols));
      return;
    case 'qr':
      b.style({ align: 'center' }).cmd(qrCommands(blk.data, QR_MODULE[paper])).line('');
      if (blk.caption) b.lines(wrap(text(blk.caption), cols));
      return;
    case 'small':
      b.style({ align: 'center', small: true }).lines(wrap(text(blk.text), SMALL_COLUMNS[paper]));
      return;
    case 'big':
      b.style({ align: blk.center ? 'center' : 'left', bold: true, size: 'double' }).lines(
        wrap(text(blk.text), cols / 2),
      );
      return;
    case 'sub':
      // Indented by two columns; large is double height only, so a line keeps its full width.
      b.style({ size: blk.large ? 'tall' : 'normal', bold: !!blk.large }).lines(
        wrap(text(blk.text), cols - 2).map((l) => `  ${l}`),
      );
      return;
  }
}

/**
 * The document as one printer job: initialise, every block, feed, cut.
 * @internal for tests
 */
export function escposOf(doc: PrintDoc, paper: PaperWidth): Buffer {
  const b = new Bytes();
  b.cmd(CMD.init);
  for (const blk of doc.blocks) block(b, blk, paper);
  b.style({}).cmd(CMD.feed(4), CMD.cut);
  return Buffer.from(b.out);
}

/** Several copies in one job, each cut off on its own. */
export function escposCopies(doc: PrintDoc, paper: PaperWidth, copies: number): Buffer {
  const one = escposOf(doc, paper);
  return Buffer.concat(Array.from({ length: Math.max(1, copies) }, () => one));
}
