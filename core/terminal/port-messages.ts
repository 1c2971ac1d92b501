// The words the cashier or IT person sees when the terminal's serial link fails: what happened and
// what to do about it, made from serialport's terse binding errors.

function messageOf(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}

export function describeOpenError(err: unknown, path: string, baudRate: number): string {
  const msg = messageOf(err);
  if (/no such file|ENOENT|cannot find the file|file not found/i.test(msg)) {
    return `Serial port ${path} was not found. Plug in the terminal's cable (CounterPay keeps trying by itself) or choose another port.`;
  }
  if (/cannot lock port|is locked|resource temporarily unavailable|EBUSY|device or resource busy/i.test(msg)) {
    return `Serial port ${path} is in use by another program. Close that program; CounterPay keeps trying by itself.`;
  }
  if (/permission denied|EACCES|access is denied/i.test(msg)) {
    return `No permission to open serial port ${path}. On Linux add this user to the "dialout" group and log in again.`;
  }
  if (/inappropriate ioctl|not a tty|ENOTTY/i.test(msg)) {
    return `${path} is not a serial port. Choose the terminal's port from the list.`;
  }
  if (/baud/i.test(msg)) {
    return `Serial port ${path} refused ${baudRate} baud. Choose the baud rate set on the terminal.`;
  }
  return `Could not open serial port ${path}: ${msg}`;
}

export function describeLostPort(path: string, disconnected: boolean): string {
  return disconnected
    ? `The terminal on ${path} was disconnected (cable unplugged?). CounterPay reconnects by itself when it is back.`
    : `Serial port ${path} was closed. CounterPay reopens it by itself.`;
}

export function describeUnreadable(path: string, baudRate: number): string {
  return `The terminal on ${path} sends unreadable data at ${baudRate} baud. Set the baud rate to the terminal's (often 115200 or 9600).`;
}

export function describeNoAnswer(path: string, baudRate: number, query: string): string {
  const asked = query ? `does not answer "${query.replace(/[\r\n]+/g, '').trim()}"` : 'has not sent its serial number';
  return `The terminal on ${path} ${asked}. Check the baud rate (now ${baudRate}), the query and pattern, and that this is the terminal's port.`;
}

export function describeUnrecognised(path: string, sample: string): string {
  return `The terminal on ${path} answers "${sample}", which holds no serial number the pattern accepts. Check the query and pattern.`;
}

/** A line as it may appear in a log or message: printable, short. */
export function sampleOf(line: string, max = 40): string {
  const printable = line.replace(/[\r\n]+$/, '').replace(/[^\x20-\x7e]/g, '?');
  return printable.length > max ? `${printable.slice(0, max)}…` : printable;
}
