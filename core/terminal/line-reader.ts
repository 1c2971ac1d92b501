// Cuts a serial port's bytes into lines (ReadlineParser on \n) and counts the bytes that cannot be
// text, which is how a baud rate mismatch shows: the line parser alone would hide them.
import { ReadlineParser } from 'serialport';
import { MAX_LINE_LENGTH } from './sn-parser';
import type { SerialPortLike } from './serial-port';

/** Bytes without a newline after which the line buffer is dropped as noise. */
const MAX_PENDING_LINE_BYTES = MAX_LINE_LENGTH * 4;

export interface LineReader {
  /** Bytes received that are neither printable ASCII nor CR, LF or tab. */
  readonly nonTextBytes: number;
  /** Stops reading; later bytes are not delivered. */
  detach(): void;
}

function isTextByte(b: number): boolean {
  return (b >= 0x20 && b <= 0x7e) || b === 0x0a || b === 0x0d || b === 0x09;
}

export function createLineReader(
  port: SerialPortLike,
  onLine: (line: string) => void,
  onBytes: () => void,
  onParserError: (err: Error) => void,
): LineReader {
  let parser: ReadlineParser | null = null;
  let nonTextBytes = 0;
  let pendingLineBytes = 0;
  let detached = false;

  const attach = () => {
    // Latin-1 maps each byte to one character, so a stray byte never merges with its neighbours.
    const p = new ReadlineParser({ delimiter: '\n', encoding: 'latin1' });
    p.on('data', (line: string) => {
      if (!detached) onLine(line);
    });
    p.on('error', onParserError);
    parser = p;
    port.pipe(p);
  };

  const drop = () => {
    if (!parser) return;
    try {
      port.unpipe(parser);
    } catch {
      // the stream may already be torn down
    }
    parser = null;
  };

  const onData = (chunk: Buffer) => {
    if (detached) return;
    for (const b of chunk) if (!isTextByte(b)) nonTextBytes += 1;
    const nl = chunk.lastIndexOf(0x0a);
    pendingLineBytes = nl === -1 ? pendingLineBytes + chunk.length : chunk.length - nl - 1;
    if (pendingLineBytes > MAX_PENDING_LINE_BYTES) {
      // ReadlineParser buffers without bound while no newline comes: start a fresh one.
      drop();
      attach();
      pendingLineBytes = 0;
    }
    onBytes();
  };

  attach();
  port.on('data', onData);

  return {
    get nonTextBytes() {
      return nonTextBytes;
    },
    detach() {
      detached = true;
      port.removeListener('data', onData);
      drop();
    },
  };
}
