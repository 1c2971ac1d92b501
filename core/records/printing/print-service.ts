// Printing: turns a journaled job into bytes or a page for the chosen printer, one job at a time,
// and records how each attempt ended. Nothing is lost when a print fails: the job stays for Retry.
import { AppError, isAppError } from '../../../shared/errors';
import type { PrinterSettings, PrintJobView } from '../../../shared/records';
import type { Logger } from '../../../shared/logger';
import type { SerialPortClass } from '../../terminal';
import { escposCopies } from './escpos';
import { sendToNetworkPrinter, type NetworkSendOptions } from './network-printer';
import type { PrintDoc } from './print-doc';
import { htmlDocumentOf } from './print-html';
import type { JobRow, NewJob, PrintJobStore, PrintTarget } from './print-jobs';
import { sendToSerialPrinter } from './serial-printer';
import type { SystemPrinter } from './system-printer';

interface PrintServiceDeps {
  jobs: PrintJobStore;
  printing: () => PrinterSettings;
  systemPrinter: SystemPrinter;
  /** The job's payload as a document (receipt, report, test page). */
  render: (job: JobRow) => PrintDoc;
  logger: Logger;
  onJob: (job: PrintJobView) => void;
  serialPort?: SerialPortClass;
  network?: NetworkSendOptions;
  serialTimeoutMs?: number;
}

function targetFrom(s: PrinterSettings): PrintTarget {
  switch (s.kind) {
    case 'network':
      return { kind: 'network', host: s.host, port: s.port, paper: s.paper, copies: s.copies };
    case 'serial':
      return { kind: 'serial', path: s.serialPath, baudRate: s.baudRate, paper: s.paper, copies: s.copies };
    case 'system':
      return {
        kind: 'system',
        deviceName: s.systemPrinterName,
        silent: s.systemSilent,
        paper: s.paper,
        copies: s.copies,
      };
  }
}

export function createPrintService(d: PrintServiceDeps) {
  let chain: Promise<unknown> = Promise.resolve();
  /** One job at a time: two receipts never interleave on one printer. */
  function exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const p = chain.then(fn, fn);
    chain = p.catch(() => {});
    return p;
  }

  /** The printer to use now, or the reason this shell cannot print to it by itself. */
  function currentTarget(): PrintTarget {
    const t = targetFrom(d.printing());
    if (t.kind === 'system' && !d.systemPrinter.available) {
      throw new AppError('PRINTER_FAILED', d.systemPrinter.note, {
        reason: 'use-browser-print',
        useBrowserPrint: true,
      });
    }
    return t;
  }

  async function send(target: PrintTarget, doc: PrintDoc): Promise<void> {
    switch (target.kind) {
      case 'network':
        return sendToNetworkPrinter(target, escposCopies(doc, target.paper, target.copies), d.network);
      case 'serial':
        return sendToSerialPrinter(target, escposCopies(doc, target.paper, target.copies), {
          ...(d.serialPort ? { SerialPort: d.serialPort } : {}),
          ...(d.serialTimeoutMs ? { timeoutMs: d.serialTimeoutMs } : {}),
        });
      case 'system':
        return d.systemPrinter.print({
          html: htmlDocumentOf(doc, target.paper),
          paper: target.paper,
          deviceName: target.deviceName,
          silent: target.silent,
          copies: target.copies,
          title: doc.title,
        });
      case 'browser':
        throw new AppError('PRINTER_FAILED', 'This was printed from the browser; print it again from there.');
    }
  }

  async function attempt(id: number, target: PrintTarget): Promise<PrintJobView> {
    const job = d.jobs.start(id, target);
    d.onJob(job.view);
    try {
      await send(target, d.render(job));
      const done = d.jobs.printed(id).view;
      d.onJob(done);
      return done;
    } catch (e) {
      const known = isAppError(e);
      if (!known)
        d.logger.error('printing failed unexpectedly', {
          jobId: id,
          error: e instanceof Error ? e.message : String(e),
        });
      const reason = known && typeof e.details?.reason === 'string' ? e.details.reason : 'failed';
      d.logger.warn('print job failed', { jobId: id, target: job.view.target, reason });
      const failed = d.jobs.failed(
        id,
        known ? `${e.code}:${reason}` : 'PRINTER_FAILED:internal',
        known ? e.message : 'Printing failed because of an error in CounterPay. It has been logged; press Retry.',
      ).view;
      d.onJob(failed);
      return failed;
    }
  }

  return {
    currentTarget,

    /** Journals the job, then prints it; resolves with how it ended (printed or failed), never loses it. */
    submit(job: Omit<NewJob, 'target' | 'status'>): Promise<PrintJobView> {
      const target = currentTarget();
      const row = d.jobs.create({ ...job, target });
      d.onJob(row.view);
      return exclusive(() => attempt(row.view.id, target));
    },

    /** Prints a failed job again, on the printer chosen now (the settings may have been fixed). */
    retry(id: number): Promise<PrintJobView> {
      const row = d.jobs.get(id);
      if (!row) throw new AppError('NOT_FOUND', `There is no print job ${id}.`, { id });
      if (row.view.status !== 'failed')
        throw new AppError(
          'CONFLICT',
          row.view.status === 'printed'
            ? 'This was printed already: use Reprint for another copy.'
            : 'This is printing now.',
          { id },
        );
      const target = currentTarget();
      return exclusive(() => attempt(id, target));
    },

    /** A print made by the browser's own print window: recorded as printed (later copies are reprints). */
    recordBrowserPrint(job: Omit<NewJob, 'target' | 'status'>): PrintJobView {
      const s = d.printing();
      const row = d.jobs.create({
        ...job,
        target: { kind: 'browser', paper: s.paper, copies: s.copies },
        status: 'printed',
      });
      d.onJob(row.view);
      return row.view;
    },

    /** Waits for every job queued so far (tests, shutdown). */
    idle(): Promise<void> {
      return chain.then(() => {});
    },
  };
}
export type PrintService = ReturnType<typeof createPrintService>;
