// The network printer path over real TCP on loopback: every byte arrives, and each way a printer
// fails (switched off, jammed, hung up) becomes a PRINTER_FAILED error a cashier can act on.
import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { isAppError } from '../../../shared/errors';
import { escposOf } from '../../../core/records/printing/escpos';
import { sendToNetworkPrinter } from '../../../core/records/printing/network-printer';
import { receiptDoc } from '../../../core/records/receipts/receipt-model';
import { escposText, startLoopbackPrinter, type LoopbackPrinter } from '../../helpers/loopback-printer';
import { paidReceipt } from '../../unit/records/receipt-fixtures';

let printer: LoopbackPrinter | null = null;
afterEach(async () => {
  await printer?.stop();
  printer = null;
});

async function failure(p: Promise<unknown>): Promise<{ message: string; reason: unknown }> {
  try {
    await p;
  } catch (e) {
    if (isAppError(e) && e.code === 'PRINTER_FAILED') return { message: e.message, reason: e.details?.reason };
    throw e;
  }
  throw new Error('expected PRINTER_FAILED');
}

describe('network receipt printer (TCP 9100)', () => {
  it('delivers the job byte for byte', async () => {
    printer = await startLoopbackPrinter();
    const bytes = escposOf(receiptDoc(paidReceipt()), '80');
    await sendToNetworkPrinter({ host: printer.host, port: printer.port }, bytes);
    const got = await printer.job(0);
    expect(got.equals(bytes)).toBe(true);
    expect(escposText(got)).toContain('Sale no.                          C1-261121-0007');
  });

  it('a printer that is switched off: refused, with what to check', async () => {
    printer = await startLoopbackPrinter();
    const port = printer.port;
    await printer.stop();
    const f = await failure(sendToNetworkPrinter({ host: '127.0.0.1', port }, Buffer.from('x')));
    expect(f.reason).toBe('refused');
    expect(f.message).toContain(`127.0.0.1:${port} refused the connection`);
    expect(f.message).toMatch(/switched on/);
  });

  it('a jammed printer that stops taking bytes: a time-out, not a hang', async () => {
    printer = await startLoopbackPrinter();
    printer.stall(true);
    // Far more than the loopback socket buffers hold, so the writes back up.
    const big = Buffer.alloc(64 * 1024 * 1024, 0x41);
    const f = await failure(
      sendToNetworkPrinter({ host: printer.host, port: printer.port }, big, { writeTimeoutMs: 300 }),
    );
    expect(f.reason).toBe('timeout');
    expect(f.message).toMatch(/out of paper|cover/);
  });

  it('a printer that hangs up at once: dropped', async () => {
    const server = createServer((s) => s.resetAndDestroy());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    try {
      const f = await failure(
        sendToNetworkPrinter({ host: '127.0.0.1', port }, Buffer.alloc(8 * 1024 * 1024, 0x41), {
          writeTimeoutMs: 5_000,
        }),
      );
      expect(f.reason).toBe('dropped');
      expect(f.message).toMatch(/dropped the connection/);
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

  it('a name that does not exist: not found', async () => {
    const f = await failure(
      sendToNetworkPrinter({ host: 'no-such-printer.invalid', port: 9100 }, Buffer.from('x'), {
        connectTimeoutMs: 3_000,
      }),
    );
    expect(['not-found', 'offline']).toContain(f.reason);
    expect(f.message).toMatch(/no-such-printer\.invalid/);
  });
});
