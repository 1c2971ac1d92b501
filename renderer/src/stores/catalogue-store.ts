// The concessions catalogue as the renderer holds it (Settings → Concessions; the Sell screen's pad
// reads the same view): the catalogue with each item's sold out and stock left, re-read when main
// says it changed; the import (template, file in, errors by line and column); sold out and back.
import { create } from 'zustand';
import type { CatalogueImportResult, CatalogueView } from '../../../shared/contract-catalogue';
import { MAX_CATALOGUE_JSON_CHARS } from '../../../shared/catalogue-json';
import { call } from '../transport/bridge';
import { downloadText } from '../transport/download';
import { errorText, fieldErrorsOf } from './call-errors';
import type { StoreFollower } from './follow';

interface CatalogueState {
  view: CatalogueView | null;
  importing: boolean;
  result: CatalogueImportResult | null;
  message: { kind: 'ok' | 'error'; text: string } | null;
  /** The code being marked sold out or back on sale (its button waits). */
  marking: string | null;
  load(): Promise<void>;
  downloadTemplate(): Promise<void>;
  importFile(file: File): Promise<void>;
  importText(text: string, fileName: string): Promise<void>;
  setSoldOut(code: string, soldOut: boolean): Promise<void>;
}

const entries = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

export const useCatalogue = create<CatalogueState>((set, get) => ({
  view: null,
  importing: false,
  result: null,
  message: null,
  marking: null,

  load: async () => {
    try {
      set({ view: await call('catalogue.get', {}) });
    } catch (e) {
      set({ message: { kind: 'error', text: errorText(e) } });
    }
  },
  downloadTemplate: async () => {
    try {
      const f = await call('catalogue.template', {});
      downloadText(f.fileName, f.csv, 'text/csv');
    } catch (e) {
      set({ message: { kind: 'error', text: errorText(e) } });
    }
  },
  importFile: async (file) => {
    if (file.size > MAX_CATALOGUE_JSON_CHARS) {
      set({
        result: null,
        message: {
          kind: 'error',
          text: `${file.name} is too large (at most ${Math.floor(MAX_CATALOGUE_JSON_CHARS / 1000)} kB).`,
        },
      });
      return;
    }
    await get().importText(await file.text(), file.name);
  },
  importText: async (text, fileName) => {
    set({ importing: true, message: null, result: null });
    try {
      const result = await call('catalogue.import', { text, fileName });
      const c = result.catalogue;
      set({
        result,
        view: c,
        message: result.imported
          ? {
              kind: 'ok',
              text: `${fileName} imported: ${entries(c.items.length, 'item')} and ${entries(c.combos.length, 'combo')}.`,
            }
          : {
              kind: 'error',
              text: `${fileName} was not imported: fix the ${result.errorCount === 1 ? 'problem' : `${result.errorCount} problems`} below and import it again. The catalogue in use has not changed.`,
            },
      });
    } catch (e) {
      const fields = Object.values(fieldErrorsOf(e));
      set({ message: { kind: 'error', text: fields[0] ?? errorText(e) } });
    } finally {
      set({ importing: false });
    }
  },
  setSoldOut: async (code, soldOut) => {
    set({ marking: code });
    try {
      set({ view: await call('catalogue.setSoldOut', { code, soldOut }) });
    } catch (e) {
      set({ message: { kind: 'error', text: errorText(e) } });
    } finally {
      set({ marking: null });
    }
  },
}));

export const catalogueFollower: StoreFollower = {
  name: 'catalogue',
  listen: (bridge) => [bridge.on('catalogue.changed', (view) => useCatalogue.setState({ view }))],
  refresh: async () => {
    if (useCatalogue.getState().view) await useCatalogue.getState().load();
  },
};
