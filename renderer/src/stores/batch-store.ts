// The Batch tab's state: the batch on show (imported draft or one being sent), its row errors, a
// page of its items, earlier batches; kept live from batch events. Files travel as text.
import { create } from 'zustand';
import {
  DEFAULT_CHUNK_SIZE,
  MAX_CHUNK_SIZE,
  MAX_CSV_CHARS,
  type BatchItemFilter,
  type BatchView,
  type CsvFile,
  type RowError,
  type TopupView,
} from '../../../shared/topups';
import { errorText, fieldErrorsOf } from './call-errors';
import type { StoreFollower } from './follow';
import { call } from '../transport/bridge';
import { downloadText } from '../transport/download';

export const PAGE_SIZE = 50;

interface BatchState {
  batch: BatchView | null;
  errors: RowError[];
  errorCount: number;
  /** The last file could not be used at all (no batch): its name and why. */
  refused: { fileName: string; totalRows: number } | null;
  importing: boolean;
  filter: BatchItemFilter;
  page: number;
  items: TopupView[];
  itemsTotal: number;
  list: BatchView[];
  chunkSize: string;
  chunkError: string | null;
  busy: boolean;
  message: { tone: 'bad' | 'good' | 'info'; text: string } | null;

  loadList(): Promise<void>;
  importFile(file: File): Promise<void>;
  downloadTemplate(): Promise<void>;
  open(id: number): Promise<void>;
  close(): void;
  checkCustomers(): Promise<void>;
  start(): Promise<void>;
  resume(): Promise<void>;
  cancel(): Promise<void>;
  exportResults(): Promise<void>;
  setFilter(f: BatchItemFilter): Promise<void>;
  setPage(p: number): Promise<void>;
  setChunkSize(v: string): void;
  applyBatch(v: BatchView): void;
  applyItems(batchId: number, items: TopupView[]): void;
}

const downloadCsv = (file: CsvFile) => downloadText(file.fileName, file.csv, 'text/csv');

function chunkProblem(v: string): string | null {
  const n = Number(v);
  if (!/^\d+$/.test(v.trim()) || n < 1 || n > MAX_CHUNK_SIZE) return `A whole number from 1 to ${MAX_CHUNK_SIZE}`;
  return null;
}

/** A batch file checked by main (nothing sent): its draft, or why it was refused. */
async function importFileOf(
  set: BatchSet,
  get: () => BatchState,
  setBatch: (batch: BatchView) => Promise<void>,
  file: File,
): Promise<void> {
  set({ message: null, refused: null });
  if (file.size > MAX_CSV_CHARS * 2) {
    set({
      message: {
        tone: 'bad',
        text: `${file.name} is too large (${Math.round(file.size / 1000)} kB). A batch file is at most ${Math.floor(MAX_CSV_CHARS / 1000)} kB (10,000 rows): split it.`,
      },
    });
    return;
  }
  set({ importing: true });
  try {
    const text = await file.text();
    const r = await call('topups.batchImport', { csv: text, fileName: file.name });
    set({ errors: r.errors, errorCount: r.errorCount });
    if (r.batch) {
      await setBatch(r.batch);
      set({
        message: { tone: r.errorCount ? 'info' : 'good', text: `${file.name} checked: nothing has been sent yet.` },
      });
    } else {
      set({ batch: null, items: [], refused: { fileName: file.name, totalRows: r.totalRows } });
    }
    await get().loadList();
  } catch (e) {
    set({ message: { tone: 'bad', text: `${file.name}: ${errorText(e)}` } });
  } finally {
    set({ importing: false });
  }
}

type BatchSet = (partial: Partial<BatchState>) => void;

export const useBatch = create<BatchState>((set, get) => {
  const guard = async (fn: () => Promise<void>) => {
    set({ busy: true, message: null });
    try {
      await fn();
    } catch (e) {
      const fields = fieldErrorsOf(e);
      if (fields.chunkSize) set({ chunkError: fields.chunkSize });
      set({ message: { tone: 'bad', text: errorText(e) } });
    } finally {
      set({ busy: false });
    }
  };
  const loadItems = async () => {
    const b = get().batch;
    if (!b || b.state === 'draft' || b.state === 'discarded') return set({ items: [], itemsTotal: 0 });
    const page = await call('topups.batchItems', {
      id: b.id,
      filter: get().filter,
      offset: get().page * PAGE_SIZE,
      limit: PAGE_SIZE,
    });
    if (get().batch?.id === b.id) set({ items: page.items, itemsTotal: page.total });
  };
  const setBatch = async (batch: BatchView) => {
    set({ batch, page: 0, filter: 'all', chunkSize: String(batch.chunkSize || DEFAULT_CHUNK_SIZE), chunkError: null });
    await loadItems();
  };

  return {
    batch: null,
    errors: [],
    errorCount: 0,
    refused: null,
    importing: false,
    filter: 'all',
    page: 0,
    items: [],
    itemsTotal: 0,
    list: [],
    chunkSize: String(DEFAULT_CHUNK_SIZE),
    chunkError: null,
    busy: false,
    message: null,

    loadList: async () => {
      try {
        const list = await call('topups.batchList', {});
        set({ list });
        // Coming back to the tab: show the batch still at work (or the draft) without a click.
        if (!get().batch) {
          const open = list.find((b) => b.state === 'running' || b.state === 'paused' || b.state === 'draft');
          if (open) await get().open(open.id);
        }
      } catch (e) {
        set({ message: { tone: 'bad', text: errorText(e) } });
      }
    },

    importFile: (file) => importFileOf(set, get, setBatch, file),

    downloadTemplate: () => guard(async () => downloadCsv(await call('topups.batchTemplate', {}))),

    open: (id) =>
      guard(async () => {
        const batch = await call('topups.batchGet', { id });
        const errs = await call('topups.batchErrors', { id, offset: 0, limit: 500 });
        set({ errors: errs.errors, errorCount: errs.total, refused: null });
        await setBatch(batch);
      }),

    close: () =>
      set({ batch: null, errors: [], errorCount: 0, items: [], itemsTotal: 0, refused: null, message: null }),

    checkCustomers: () =>
      guard(async () => {
        const b = get().batch;
        if (b) set({ batch: await call('topups.batchCheckCustomers', { id: b.id }) });
      }),

    start: async () => {
      const b = get().batch;
      const problem = chunkProblem(get().chunkSize);
      if (problem) return set({ chunkError: problem });
      if (!b) return;
      await guard(async () => {
        await setBatch(await call('topups.batchStart', { id: b.id, chunkSize: Number(get().chunkSize) }));
        await get().loadList();
      });
    },

    resume: async () => {
      const b = get().batch;
      const problem = chunkProblem(get().chunkSize);
      if (problem) return set({ chunkError: problem });
      if (!b) return;
      await guard(async () => {
        set({ batch: await call('topups.batchResume', { id: b.id, chunkSize: Number(get().chunkSize) }) });
      });
    },

    cancel: () =>
      guard(async () => {
        const b = get().batch;
        if (!b) return;
        const after = await call('topups.batchCancel', { id: b.id });
        if (after.state === 'discarded') get().close();
        else set({ batch: after });
        await loadItems();
        await get().loadList();
      }),

    exportResults: () =>
      guard(async () => {
        const b = get().batch;
        if (b) downloadCsv(await call('topups.batchExport', { id: b.id }));
      }),

    setFilter: async (filter) => {
      set({ filter, page: 0 });
      await guard(loadItems);
    },

    setPage: async (page) => {
      set({ page });
      await guard(loadItems);
    },

    setChunkSize: (v) => set({ chunkSize: v, chunkError: null }),

    applyBatch: (v) => {
      set({
        list: get().list.some((b) => b.id === v.id) ? get().list.map((b) => (b.id === v.id ? v : b)) : get().list,
      });
      if (get().batch?.id !== v.id) return;
      const wasDraft = get().batch?.state === 'draft';
      set({ batch: v });
      // The customer check takes rows out: their errors join the list.
      if (v.state === 'draft' && v.check.state === 'done' && v.check.notFound > 0) {
        void call('topups.batchErrors', { id: v.id, offset: 0, limit: 500 }).then(
          (e) => set({ errors: e.errors, errorCount: e.total }),
          () => {},
        );
      }
      if (wasDraft && v.state !== 'draft') void loadItems();
    },

    applyItems: (batchId, changed) => {
      if (get().batch?.id !== batchId) return;
      const byId = new Map(changed.map((i) => [i.id, i]));
      const items = get().items;
      if (items.some((i) => byId.has(i.id))) set({ items: items.map((i) => byId.get(i.id) ?? i) });
      // The first page fills as results arrive.
      else if (get().page === 0 && items.length < PAGE_SIZE && get().filter !== 'open')
        void loadItems().catch(() => {});
    },
  };
});

export const batchesFollower: StoreFollower = {
  name: 'batches',
  listen: (bridge) => [
    bridge.on('topups.batchChanged', (v) => useBatch.getState().applyBatch(v)),
    bridge.on('topups.batchItems', (e) => useBatch.getState().applyItems(e.batchId, e.items)),
  ],
  refresh: async () => {
    const s = useBatch.getState();
    if (s.list.length === 0 && !s.batch) return; // the Batch tab was never opened
    await s.loadList();
    const open = useBatch.getState().batch;
    if (open) await useBatch.getState().open(open.id);
  },
};
