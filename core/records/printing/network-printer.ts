// Sending ESC/POS bytes to a network receipt printer: a raw TCP connection (port 9100), bounded in
// time, with an error a cashier can act on for each way it fails (refused, offline, stalled, dropped).
import { connect } from 'node:net';
import { AppError } from '../../../shared/errors';

interface NetworkTarget {
  host: string;
  port: number;
}

export interface NetworkSendOptions {
  /** Time to open the connection. */
  connectTimeoutMs?: number;
  /** Time for the printer to take the whole job once connected. */
  writeTimeoutMs?: number;
}

const NETWORK_DEFAULTS = { connectTimeoutMs: 4_000, writeTimeoutMs: 15_000 };

type PrinterFailure = 'refused' | 'offline' | 'not-found' | 'timeout' | 'dropped' | 'failed';

export function printerError(reason: PrinterFailure, message: string, extra: Record<string, unknown> = {}): AppError {
  return new AppError('PRINTER_FAILED', message, { reason, ...extra });
}

function describe(err: NodeJS.ErrnoException, where: string, t: NetworkTarget): AppError {
  switch (err.code) {
    case 'ECONNREFUSED':
      return printerError(
        'refused',
        `The printer at ${where} refused the connection. Check that it is switched on and that ${t.port} is its port (usually 9100).`,
        { errno: err.code },
      );
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'EHOSTDOWN':
    case 'ENETDOWN':
    case 'EADDRNOTAVAIL':
      return printerError(
        'offline',
        `The printer at ${where} cannot be reached. Check that it is switched on, its network cable is in, and the address is right.`,
        { errno: err.code },
      );
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return printerError(
        'not-found',
        `There is no printer called "${t.host}" on the network. Check the printer address in the receipt settings.`,
        { errno: err.code },
      );
    case 'ECONNRESET':
    case 'EPIPE':
      return printerError(
        'dropped',
        `The printer at ${where} dropped the connection while printing. Check its paper and cover, then press Retry.`,
        { errno: err.code },
      );
    default:
      return printerError(
        'failed',
        `Printing to ${where} failed (${err.code ?? err.message}). Press Retry, or check the printer.`,
        { errno: err.code ?? null },
      );
  }
}

/** Resolves once every byte is handed to the network; rejects with PRINTER_FAILED. */
export function sendToNetworkPrinter(
  target: NetworkTarget,
  bytes: Uint8Array,
  opts: NetworkSendOptions = {},
): Promise<void> {
  const connectTimeoutMs = opts.connectTimeoutMs ?? NETWORK_DEFAULTS.connectTimeoutMs;
  const writeTimeoutMs = opts.writeTimeoutMs ?? NETWORK_DEFAULTS.writeTimeoutMs;
  const where = `${target.host}:${target.port}`;
  return new Promise<void>((resolve, reject) => {
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const socket = connect({ host: target.host, port: target.port });
    const settle = (err?: AppError) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (err) {
        socket.destroy();
        reject(err);
      } else {
        // The printer closes its side when it has read everything; don't hold the socket for ever.
        setTimeout(() => socket.destroy(), 2_000).unref();
        resolve();
      }
    };
    timer = setTimeout(
      () =>
        settle(
          printerError(
            'offline',
            `The printer at ${where} did not answer within ${Math.round(connectTimeoutMs / 1000)} s. Check that it is switched on and connected, and that the address is right.`,
          ),
        ),
      connectTimeoutMs,
    );
    socket.on('error', (e: NodeJS.ErrnoException) => settle(describe(e, where, target)));
    socket.once('connect', () => {
      clearTimeout(timer);
      timer = setTimeout(
        () =>
          settle(
            printerError(
              'timeout',
              `The printer at ${where} stopped taking the receipt (nothing moved for ${Math.round(writeTimeoutMs / 1000)} s). It may be out of paper or its cover may be open. Fix it, then press Retry.`,
            ),
          ),
        writeTimeoutMs,
      );
      socket.end(Buffer.from(bytes));
    });
    // 'finish': the whole job has been written to the connection.
    socket.once('finish', () => settle());
  });
}
