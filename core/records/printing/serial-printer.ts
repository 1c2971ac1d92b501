// Sending ESC/POS bytes to a receipt printer on a serial port: open, write, drain, close, within a
// time limit, with errors that say which port and what to check.
import { SerialPort } from 'serialport';
import type { SerialPortClass, SerialPortLike } from '../../terminal';
import { printerError } from './network-printer';

interface SerialTarget {
  path: string;
  baudRate: number;
}

function openError(err: Error, path: string) {
  const m = err.message;
  if (/ENOENT|No such file|cannot find|File not found/i.test(m)) {
    return printerError(
      'offline',
      `There is no serial port ${path}. Check the printer's cable, or choose its port again in the receipt settings.`,
    );
  }
  if (/EACCES|Access denied|permission/i.test(m)) {
    return printerError(
      'failed',
      `CounterPay may not use ${path} (access denied). Ask IT to give this user access to the port.`,
    );
  }
  if (/EBUSY|busy|in use|Resource temporarily unavailable|Cannot lock/i.test(m)) {
    return printerError('failed', `${path} is in use by another program. Close it, then press Retry.`);
  }
  return printerError('failed', `The serial port ${path} could not be opened (${m}).`);
}

export function sendToSerialPrinter(
  target: SerialTarget,
  bytes: Uint8Array,
  opts: { timeoutMs?: number; SerialPort?: SerialPortClass } = {},
): Promise<void> {
  const Port = opts.SerialPort ?? (SerialPort as unknown as SerialPortClass);
  const timeoutMs = opts.timeoutMs ?? 15_000;
  return new Promise<void>((resolve, reject) => {
    let settled = false;
    let port: SerialPortLike | null = null;
    const finish = (err?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      const done = () => (err ? reject(err) : resolve());
      if (port?.isOpen) port.close(() => done());
      else done();
    };
    const timer = setTimeout(
      () =>
        finish(
          printerError(
            'timeout',
            `The printer on ${target.path} did not take the receipt within ${Math.round(timeoutMs / 1000)} s. Check that it is on, has paper, and that the speed (${target.baudRate} baud) is right.`,
          ),
        ),
      timeoutMs,
    );
    try {
      port = new Port({ path: target.path, baudRate: target.baudRate, autoOpen: false });
    } catch (e) {
      finish(openError(e instanceof Error ? e : new Error(String(e)), target.path));
      return;
    }
    const p = port;
    p.on('error', (e) =>
      finish(
        printerError(
          'dropped',
          `The printer on ${target.path} stopped answering (${e.message}). Check the cable, then press Retry.`,
        ),
      ),
    );
    p.open((err) => {
      if (err) return finish(openError(err, target.path));
      p.write(Buffer.from(bytes), (werr) => {
        if (werr)
          return finish(printerError('failed', `Writing to the printer on ${target.path} failed (${werr.message}).`));
        p.drain((derr) =>
          finish(
            derr
              ? printerError('failed', `Writing to the printer on ${target.path} failed (${derr.message}).`)
              : undefined,
          ),
        );
      });
    });
  });
}
