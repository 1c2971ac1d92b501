// Printer and cinema settings: defaults, per-field errors, and nothing saved unless all is right.
import { describe, expect, it } from 'vitest';
import { isAppError } from '../../../shared/errors';
import { memoryLogger } from '../../../shared/logger';
import { createRecordsSettings } from '../../../core/records/records-settings';
import { memoryStore } from '../../../core/settings/kv-store';

function fieldsOf(fn: () => unknown): Record<string, string> {
  try {
    fn();
  } catch (e) {
    if (isAppError(e) && e.code === 'VALIDATION') return e.details?.fields as Record<string, string>;
    throw e;
  }
  throw new Error('expected a VALIDATION error');
}

describe('receipt settings', () => {
  it('starts with the system printer on 80 mm paper, one copy, no automatic printing', () => {
    const s = createRecordsSettings(memoryStore(), memoryLogger()).get();
    expect(s.printing).toMatchObject({ kind: 'system', paper: '80', copies: 1, autoPrint: false, port: 9100 });
    expect(s.cinema.name).toBe('Cinema');
  });

  it('names each wrong field and saves nothing, not even the right part', () => {
    const store = memoryStore();
    const s = createRecordsSettings(store, memoryLogger());
    const fields = fieldsOf(() =>
      s.save({
        printing: { kind: 'network', host: 'http://10.0.0.5', port: '99999', copies: 9, paper: '76' },
        cinema: { name: 'Good name' },
      }),
    );
    expect(fields['printing.host']).toMatch(/without http/);
    expect(fields['printing.port']).toMatch(/1 to 65535/);
    expect(fields['printing.copies']).toMatch(/1 to 5/);
    expect(fields['printing.paper']).toBeTruthy();
    expect(store.get('printing')).toBeUndefined();
    expect(store.get('cinema')).toBeUndefined();
    expect(fieldsOf(() => s.save({ printing: { kind: 'network', host: '10.0.0.5:9100' } }))['printing.host']).toMatch(
      /Port field/,
    );
    expect(fieldsOf(() => s.save({ printing: { kind: 'serial' } }))['printing.serialPath']).toMatch(/serial port/);
    expect(fieldsOf(() => s.save({ cinema: { name: '  ' } }))['cinema.name']).toMatch(/cinema’s name/);
  });

  it('saves both parts, typed numbers included, and keeps a part that was not sent', () => {
    const s = createRecordsSettings(memoryStore(), memoryLogger());
    s.save({
      printing: { kind: 'network', host: ' printer-1.local ', port: '9101', copies: '2', autoPrint: true, paper: '58' },
      cinema: { name: 'Filmhouse', branch: 'Lekki' },
    });
    s.save({ cinema: { branch: 'Ikeja' } });
    const now = s.get();
    expect(now.printing).toMatchObject({
      kind: 'network',
      host: 'printer-1.local',
      port: 9101,
      copies: 2,
      autoPrint: true,
      paper: '58',
    });
    expect(now.cinema).toMatchObject({ name: 'Filmhouse', branch: 'Ikeja' });
  });

  it('falls back to the defaults (and says so in the log) when the stored value is broken', () => {
    const logger = memoryLogger();
    const s = createRecordsSettings(memoryStore({ printing: { kind: 'laser', copies: 'many' } }), logger);
    expect(s.get().printing.kind).toBe('system');
    expect(logger.lines.some((l) => l.level === 'warn' && l.fields?.setting === 'printing')).toBe(true);
  });
});
