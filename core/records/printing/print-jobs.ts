// The print job journal: every receipt, report and test page sent to a printer is a row first, so a
// failed print keeps what it was printing and where, and can be tried again at any time.
import type { PaperWidth, PrintJobStatus, PrintJobView } from '../../../shared/records';
import type { RecordProfile } from '../../../shared/record-profile';
import type { Db } from '../../db';
import { camelRow, type Row } from '../../lib';

export type PrintTarget =
  | { kind: 'network'; host: string; port: number; paper: PaperWidth; copies: number }
  | { kind: 'serial'; path: string; baudRate: number; paper: PaperWidth; copies: number }
  | { kind: 'system'; deviceName: string; silent: boolean; paper: PaperWidth; copies: number }
  /** Printed by the browser's own print window (the browser shell); recorded, not sent. */
  | { kind: 'browser'; paper: PaperWidth; copies: number };

export function targetText(t: PrintTarget): string {
  switch (t.kind) {
    case 'network':
      return `Network printer ${t.host}:${t.port}`;
    case 'serial':
      return `Serial printer ${t.path} (${t.baudRate} baud)`;
    case 'system':
      return t.deviceName ? `System printer “${t.deviceName}”` : 'The computer’s default printer';
    case 'browser':
      return 'The browser’s print window';
  }
}

type JobKind = PrintJobView['kind'];

export interface NewJob {
  kind: JobKind;
  orderId?: number;
  reportId?: number;
  title: string;
  payload: unknown;
  target: PrintTarget;
  reprint: boolean;
  status?: PrintJobStatus;
  /** The profile of what it prints (a receipt: its order's; a report: its shift's). */
  profile?: RecordProfile;
}

export interface JobRow {
  view: PrintJobView;
  payload: unknown;
  target: PrintTarget;
}

/** The columns that are not part of the view (the view's `target` is the target's text). */
const NOT_IN_VIEW = ['payload_json', 'target_json', 'target_text', 'printed_at', 'profile'];

function toRow(r: Row): JobRow {
  return {
    view: { ...camelRow(r, NOT_IN_VIEW), target: r.target_text, reprint: r.reprint === 1 } as PrintJobView,
    payload: JSON.parse(r.payload_json as string) as unknown,
    target: JSON.parse(r.target_json as string) as PrintTarget,
  };
}

export class PrintJobStore {
  constructor(
    private readonly db: Db,
    private readonly now: () => number,
  ) {}

  create(j: NewJob): JobRow {
    const at = this.now();
    const info = this.db
      .prepare(
        `INSERT INTO print_jobs (kind, order_id, report_id, title, payload_json, target_json, target_text, status, reprint, created_at, updated_at, printed_at, profile)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        j.kind,
        j.orderId ?? null,
        j.reportId ?? null,
        j.title,
        JSON.stringify(j.payload),
        JSON.stringify(j.target),
        targetText(j.target),
        j.status ?? 'pending',
        j.reprint ? 1 : 0,
        at,
        at,
        j.status === 'printed' ? at : null,
        j.profile ?? 'unrecorded',
      );
    return this.require(Number(info.lastInsertRowid));
  }

  get(id: number): JobRow | null {
    const r = this.db.prepare('SELECT * FROM print_jobs WHERE id = ?').get(id) as Row | undefined;
    return r ? toRow(r) : null;
  }

  require(id: number): JobRow {
    const r = this.get(id);
    if (!r) throw new Error(`print job ${id} vanished`);
    return r;
  }

  /** Takes the job for a new attempt (counted), towards `target`. */
  start(id: number, target: PrintTarget): JobRow {
    this.db
      .prepare(
        "UPDATE print_jobs SET status = 'printing', attempts = attempts + 1, target_json = ?, target_text = ?, error = NULL, error_code = NULL, updated_at = ? WHERE id = ?",
      )
      .run(JSON.stringify(target), targetText(target), this.now(), id);
    return this.require(id);
  }

  printed(id: number): JobRow {
    const at = this.now();
    this.db
      .prepare(
        "UPDATE print_jobs SET status = 'printed', error = NULL, error_code = NULL, updated_at = ?, printed_at = ? WHERE id = ?",
      )
      .run(at, at, id);
    return this.require(id);
  }

  failed(id: number, code: string, message: string): JobRow {
    this.db
      .prepare("UPDATE print_jobs SET status = 'failed', error = ?, error_code = ?, updated_at = ? WHERE id = ?")
      .run(message, code, this.now(), id);
    return this.require(id);
  }

  forOrder(orderId: number): PrintJobView[] {
    return (
      this.db.prepare('SELECT * FROM print_jobs WHERE order_id = ? ORDER BY id DESC LIMIT 50').all(orderId) as Row[]
    ).map((r) => toRow(r).view);
  }

  forReport(reportId: number): PrintJobView[] {
    return (
      this.db
        .prepare("SELECT * FROM print_jobs WHERE report_id = ? AND kind = 'shift-report' ORDER BY id DESC LIMIT 50")
        .all(reportId) as Row[]
    ).map((r) => toRow(r).view);
  }

  /** Jobs whose last attempt failed, newest first: the "not printed" list with Retry. */
  failedJobs(limit = 20): PrintJobView[] {
    return (
      this.db.prepare("SELECT * FROM print_jobs WHERE status = 'failed' ORDER BY id DESC LIMIT ?").all(limit) as Row[]
    ).map((r) => toRow(r).view);
  }

  /** Whether this order's receipt or pickup slip (or this report) has come out of a printer before (by a job made at or after `since`, when given). */
  wasPrinted(kind: 'receipt' | 'pickup-slip' | 'shift-report', id: number, since = 0): boolean {
    const col = kind === 'shift-report' ? 'report_id' : 'order_id';
    return !!this.db
      .prepare(
        `SELECT 1 FROM print_jobs WHERE kind = ? AND ${col} = ? AND status = 'printed' AND created_at >= ? LIMIT 1`,
      )
      .get(kind, id, since);
  }

  /** Whether this refund's slip has come out of a printer before (its jobs are its sale's, the refund named in the payload). */
  refundSlipPrinted(refundId: number): boolean {
    return !!this.db
      .prepare(
        "SELECT 1 FROM print_jobs WHERE kind = 'refund-slip' AND status = 'printed' AND json_extract(payload_json, '$.slip.refundId') = ? LIMIT 1",
      )
      .get(refundId);
  }

  hasJob(kind: 'receipt' | 'pickup-slip', orderId: number): boolean {
    return !!this.db.prepare('SELECT 1 FROM print_jobs WHERE kind = ? AND order_id = ? LIMIT 1').get(kind, orderId);
  }

  /**
   * After a restart: a job caught mid-print is marked failed, never sent again by itself (part of it
   * may have printed); the cashier looks at the paper and presses Retry.
   */
  recoverInterrupted(): PrintJobView[] {
    const rows = (
      this.db.prepare("SELECT id FROM print_jobs WHERE status IN ('printing', 'pending')").all() as { id: number }[]
    ).map((r) => r.id);
    return rows.map(
      (id) =>
        this.failed(
          id,
          'INTERRUPTED',
          'CounterPay stopped while this was printing. Check what came out of the printer, then press Retry if needed.',
        ).view,
    );
  }
}
