// A network receipt printer on loopback for tests: listens on 127.0.0.1:<port 0> like a printer's
// port 9100, records every job's bytes, and can be switched off (refused), or stall (stops reading).
// Also holds escposText(), which reads the text lines back out of ESC/POS bytes.
import { createServer, type Server, type Socket } from 'node:net';

export interface LoopbackPrinter {
  readonly host: string;
  readonly port: number;
  /** One entry per connection that ended, in order. */
  readonly jobs: Buffer[];
  /** Resolves with job number `n` (0-based) once it has fully arrived (the client closed). */
  job(n: number, timeoutMs?: number): Promise<Buffer>;
  /** Stops reading from new connections: the sender's writes back up, as with a jammed printer. */
  stall(on: boolean): void;
  /** Switched off: the port refuses connections until `start()`. */
  stop(): Promise<void>;
  start(): Promise<void>;
}

export async function startLoopbackPrinter(): Promise<LoopbackPrinter> {
  const jobs: Buffer[] = [];
  const waiters = new Set<() => void>();
  const sockets = new Set<Socket>();
  let stalled = false;
  let port = 0;
  let server: Server | null = null;

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const s = createServer((sock) => {
        sockets.add(sock);
        const chunks: Buffer[] = [];
        if (stalled) sock.pause();
        sock.on('data', (c: Buffer) => chunks.push(c));
        sock.on('error', () => {});
        sock.on('end', () => {
          jobs.push(Buffer.concat(chunks));
          sock.end();
          for (const w of [...waiters]) w();
        });
        sock.on('close', () => sockets.delete(sock));
      });
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => {
        port = (s.address() as { port: number }).port;
        server = s;
        resolve();
      });
    });

  await listen();

  const printer: LoopbackPrinter = {
    host: '127.0.0.1',
    get port() {
      return port;
    },
    jobs,
    job(n, timeoutMs = 10_000) {
      if (jobs[n]) return Promise.resolve(jobs[n]);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`the loopback printer got ${jobs.length} job(s), not job #${n}, within ${timeoutMs} ms`));
        }, timeoutMs);
        const check = () => {
          const j = jobs[n];
          if (!j) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(j);
        };
        waiters.add(check);
      });
    },
    stall(on) {
      stalled = on;
      for (const s of sockets) {
        if (on) s.pause();
        else s.resume();
      }
    },
    async stop() {
      const s = server;
      server = null;
      if (!s) return;
      for (const sock of sockets) sock.destroy();
      await new Promise<void>((resolve) => s.close(() => resolve()));
    },
    async start() {
      if (!server) await listen();
    },
  };
  return printer;
}

export interface PrintedLine {
  text: string;
  /** Font B (the small one) was on. */
  small: boolean;
  /** Double width was on (half as many characters fit). */
  wide: boolean;
}

/** The printed lines of ESC/POS bytes with the font they were printed in; every command taken out. */
export function escposLines(bytes: Buffer): PrintedLine[] {
  const lines: PrintedLine[] = [];
  let text = '';
  let small = false;
  let wide = false;
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    const c = bytes[i + 1];
    if (b === 0x1b) {
      if (c === 0x4d) small = bytes[i + 2] === 1;
      i += c === 0x40 ? 2 : 3; // ESC @ | ESC a/E/M/d/t n
    } else if (b === 0x1d) {
      if (c === 0x21) wide = (bytes[i + 2]! & 0xf0) !== 0;
      if (c === 0x28)
        i += 5 + bytes[i + 3]! + bytes[i + 4]! * 256; // GS ( k pL pH ...
      else if (c === 0x56)
        i += 4; // GS V m n
      else i += 3; // GS ! n | GS B n
    } else if (b === 0x0a) {
      lines.push({ text, small, wide });
      text = '';
      i++;
    } else {
      text += String.fromCharCode(b);
      i++;
    }
  }
  if (text) lines.push({ text, small, wide });
  return lines;
}

/** The printed text of ESC/POS bytes, one string per line. */
export function escposText(bytes: Buffer): string[] {
  return escposLines(bytes).map((l) => l.text);
}
