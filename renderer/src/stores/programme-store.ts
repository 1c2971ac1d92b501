// The programme as the renderer holds it: the next shows for the Sell screen (re-read when main
// says the programme changed, and every minute so past shows leave the list), and the import panel
// in Settings (template, file in, errors by line and column).
import { create } from 'zustand';
import type { NextShows, ProgrammeImportResult, ProgrammeSummary } from '../../../shared/programme';
import { call } from '../transport/bridge';
import { downloadText } from '../transport/download';
import { errorText, fieldErrorsOf } from './call-errors';
import type { StoreFollower } from './follow';

const BY_KEY = 'counterpay.programme.by';

interface ProgrammeState {
  next: NextShows | null;
  nextError: string | null;
  summary: ProgrammeSummary | null;
  importing: boolean;
  result: ProgrammeImportResult | null;
  message: { kind: 'ok' | 'error'; text: string } | null;
  by: string;
  loadNext(): Promise<void>;
  loadSummary(): Promise<void>;
  setBy(v: string): void;
  downloadTemplate(): Promise<void>;
  importFile(file: File): Promise<void>;
  importText(csv: string, fileName: string): Promise<void>;
}

export const useProgramme = create<ProgrammeState>((set, get) => ({
  next: null,
  nextError: null,
  summary: null,
  importing: false,
  result: null,
  message: null,
  by: (typeof localStorage === 'undefined' ? null : localStorage.getItem(BY_KEY)) ?? '',

  loadNext: async () => {
    try {
      set({ next: await call('programme.next', {}), nextError: null });
    } catch (e) {
      set({ nextError: errorText(e) });
    }
  },
  loadSummary: async () => {
    try {
      set({ summary: await call('programme.summary', {}) });
    } catch (e) {
      set({ message: { kind: 'error', text: errorText(e) } });
    }
  },
  setBy: (by) => {
    localStorage.setItem(BY_KEY, by);
    set({ by });
  },
  downloadTemplate: async () => {
    try {
      const f = await call('programme.template', {});
      downloadText(f.fileName, f.csv, 'text/csv');
    } catch (e) {
      set({ message: { kind: 'error', text: errorText(e) } });
    }
  },
  importFile: async (file) => {
    if (file.size > 900_000) {
      set({
        result: null,
        message: { kind: 'error', text: `${file.name} is too large (at most 900 kB): split the programme by week.` },
      });
      return;
    }
    await get().importText(await file.text(), file.name);
  },
  importText: async (csv, fileName) => {
    const by = get().by.trim();
    if (!by) {
      set({
        message: {
          kind: 'error',
          text: 'Enter your name under “Imported by” first: the counter records who imported the programme.',
        },
      });
      return;
    }
    set({ importing: true, message: null, result: null });
    try {
      const result = await call('programme.import', { csv, fileName, by });
      set({
        result,
        summary: result.summary,
        message: result.imported
          ? {
              kind: 'ok',
              text: `${fileName} imported: ${result.summary.shows} shows of ${result.summary.films} films on ${result.summary.screens} screens.`,
            }
          : {
              kind: 'error',
              text: `${fileName} was not imported: fix the ${result.errorCount === 1 ? 'problem' : `${result.errorCount} problems`} below and import it again. The programme in use has not changed.`,
            },
      });
      if (result.imported) void get().loadNext();
    } catch (e) {
      const fields = Object.values(fieldErrorsOf(e));
      set({ message: { kind: 'error', text: fields[0] ?? errorText(e) } });
    } finally {
      set({ importing: false });
    }
  },
}));

export const programmeFollower: StoreFollower = {
  name: 'programme',
  listen: (bridge) => [
    bridge.on('programme.changed', (summary) => {
      useProgramme.setState({ summary });
      void useProgramme.getState().loadNext();
    }),
  ],
  refresh: async () => {
    const s = useProgramme.getState();
    await Promise.all([s.next ? s.loadNext() : null, s.summary ? s.loadSummary() : null]);
  },
};
