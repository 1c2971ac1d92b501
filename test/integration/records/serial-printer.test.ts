// The serial printer path on a real pseudo-terminal pair (socat): the app writes to one end with
// serialport's real binding, the "printer" reads the other; a missing port is a clear error.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SerialPort } from 'serialport';
import { afterEach, describe, expect, it } from 'vitest';
import { isAppError } from '../../../shared/errors';
import { escposOf } from '../../../core/records/printing/escpos';
import { receiptDoc } from '../../../core/records/receipts/receipt-model';
import { sendToSerialPrinter } from '../../../core/records/printing/serial-printer';
import { SOCAT_MISSING_REASON } from '../../helpers/fake-terminal';
import { paidReceipt } from '../../unit/records/receipt-fixtures';

let socat: ChildProcess | null = null;
let far: SerialPort | null = null;
let dir = '';

afterEach(async () => {
  if (far?.isOpen) await new Promise<void>((r) => far!.close(() => r()));
  far = null;
  if (socat && socat.exitCode === null) {
    const exited = new Promise((r) => socat!.once('exit', r));
    socat.kill('SIGTERM');
    await exited;
  }
  socat = null;
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function ptyPair(): Promise<{ app: string; printer: string }> {
  dir = mkdtempSync(join(tmpdir(), 'counterpay-serial-printer-'));
  const app = join(dir, 'app');
  const printer = join(dir, 'printer');
  const child = spawn('socat', ['-d', '-d', `pty,raw,echo=0,link=${app}`, `pty,raw,echo=0,link=${printer}`], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  socat = child;
  // socat reports each pty it made on stderr; both links exist after the second report.
  await new Promise<void>((resolve, reject) => {
    let seen = '';
    child.stderr!.on('data', (b: Buffer) => {
      seen += b.toString();
      if ((seen.match(/PTY is/g) ?? []).length >= 2 && existsSync(app) && existsSync(printer)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`socat exited (${code}): ${seen}`)));
  });
  return { app, printer };
}

describe.skipIf(SOCAT_MISSING_REASON !== null)(`serial receipt printer ${SOCAT_MISSING_REASON ?? ''}`, () => {
  it('writes the whole job to the port', async () => {
    const pair = await ptyPair();
    const bytes = escposOf(receiptDoc(paidReceipt()), '58');
    far = new SerialPort({ path: pair.printer, baudRate: 9600, autoOpen: false });
    await new Promise<void>((res, rej) => far!.open((e) => (e ? rej(e) : res())));
    const chunks: Buffer[] = [];
    const all = new Promise<void>((resolve) => {
      far!.on('data', (c: Buffer) => {
        chunks.push(c);
        if (Buffer.concat(chunks).length >= bytes.length) resolve();
      });
    });
    await sendToSerialPrinter({ path: pair.app, baudRate: 9600 }, bytes);
    await all;
    expect(Buffer.concat(chunks).equals(bytes)).toBe(true);
  });

  it('a port that is not there: says which, and what to check', async () => {
    try {
      await sendToSerialPrinter({ path: '/dev/ttyNOPE-counterpay', baudRate: 9600 }, Buffer.from('x'), {
        timeoutMs: 3_000,
      });
      expect.fail('expected PRINTER_FAILED');
    } catch (e) {
      expect(isAppError(e) && e.code).toBe('PRINTER_FAILED');
      expect((e as Error).message).toMatch(/\/dev\/ttyNOPE-counterpay/);
      expect((e as Error).message).toMatch(/cable|port/);
    }
  });
});
