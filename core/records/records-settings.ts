// The receipt printer and the cinema's name, kept in the settings store under 'printing' and
// 'cinema': read with defaults, saved all-or-nothing with an error next to each wrong field.
import { issueFields, validationError, type FieldErrors } from '../../shared/errors';
import {
  CinemaSettingsSchema,
  defaultCinemaSettings,
  RECEIPT_SETTINGS_INVALID,
  defaultPrinterSettings,
  PrinterSettingsSchema,
  printerTargetIssues,
  type CinemaSettings,
  type PrinterSettings,
} from '../../shared/records';
import type { Logger } from '../../shared/logger';
import type { KeyValueStore } from '../settings';

interface RecordsSettings {
  printing: PrinterSettings;
  cinema: CinemaSettings;
}

export function createRecordsSettings(store: KeyValueStore, logger: Logger) {
  function read<T>(
    key: string,
    parse: (v: unknown) => { success: true; data: T } | { success: false },
    fallback: () => T,
  ): T {
    const raw = store.get(key);
    if (raw === undefined) return fallback();
    const r = parse(raw);
    if (r.success) return r.data;
    logger.warn('saved receipt settings were not valid; using the defaults', { setting: key });
    return fallback();
  }

  return {
    get(): RecordsSettings {
      return {
        printing: read('printing', (v) => PrinterSettingsSchema.safeParse(v), defaultPrinterSettings),
        cinema: read('cinema', (v) => CinemaSettingsSchema.safeParse(v), defaultCinemaSettings),
      };
    },

    /** Checks both parts; writes nothing unless every field is right. Missing parts keep their value. */
    save(input: { printing?: unknown; cinema?: unknown }): RecordsSettings {
      const cur = this.get();
      const asObject = (v: unknown) => (typeof v === 'object' && v !== null && !Array.isArray(v) ? v : {});
      const printingIn = { ...cur.printing, ...asObject(input.printing) };
      const printing =
        input.printing === undefined
          ? { success: true as const, data: cur.printing }
          : PrinterSettingsSchema.safeParse(printingIn);
      const cinema =
        input.cinema === undefined
          ? { success: true as const, data: cur.cinema }
          : CinemaSettingsSchema.safeParse({ ...cur.cinema, ...asObject(input.cinema) });
      // The printer-kind checks run only on an otherwise valid object: run them here too, so all errors show at once.
      const fields: FieldErrors = {
        ...(printing.success
          ? {}
          : issueFields([...printing.error.issues, ...printerTargetIssues(printingIn)], { prefix: 'printing' })),
        ...(cinema.success ? {} : issueFields(cinema.error.issues, { prefix: 'cinema' })),
      };
      if (!printing.success || !cinema.success) throw validationError(fields, RECEIPT_SETTINGS_INVALID);
      store.set('printing', printing.data);
      store.set('cinema', cinema.data);
      return { printing: printing.data, cinema: cinema.data };
    },
  };
}
export type RecordsSettingsStore = ReturnType<typeof createRecordsSettings>;
