// A printable document as a list of blocks: receipts, shift reports and the test page are built
// as one of these, and each output (HTML, ESC/POS) renders the same blocks its own way.

export type Block =
  /** The shop's name: large, bold, centred. */
  | { t: 'title'; text: string }
  | { t: 'center'; text: string; bold?: boolean }
  /** The largest warning there is (DEMO — NOT A PAYMENT): double size, reversed, centred, boxed. */
  | { t: 'banner'; text: string }
  /** A mark that must not be missed (REPRINT, NOT PAID): reversed, centred. */
  | { t: 'mark'; text: string }
  | { t: 'rule'; double?: boolean }
  /** A label on the left, its value on the right. */
  | { t: 'pair'; label: string; value: string; bold?: boolean }
  /** The amount that matters, larger than the rest. */
  | { t: 'total'; label: string; value: string }
  | { t: 'heading'; text: string }
  | { t: 'text'; text: string; bold?: boolean }
  | { t: 'qr'; data: string; caption?: string }
  /** Fine print, centred. */
  | { t: 'small'; text: string }
  /** Large text read from arm's length (the pickup slip): double size, bold; centred or on the left. */
  | { t: 'big'; text: string; center?: boolean }
  /** A detail indented under the line above (a combo's drink, a ticket type's seats); `large`: taller, for the pickup slip. */
  | { t: 'sub'; text: string; large?: boolean };

export interface PrintDoc {
  /** For the HTML document's title and the print job's name. */
  title: string;
  blocks: Block[];
}
