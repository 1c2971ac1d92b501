// The database's one ordered list of migrations, composed at the root. Each table has one owner,
// which writes its own migrations next to its code; this list only says in which order they run on
// a new file. A name once shipped never changes (existing files know their applied migrations by
// name), and new migrations go at the end of their owner's list.
import { CASE_MIGRATIONS } from './cases';
import { CATALOGUE_MIGRATIONS } from './catalogue';
import { openDatabase, type Db, type Migration, type OpenOptions } from './db';
import { HUB_LINK_MIGRATIONS } from './hub-link';
import { INTEGRATION_MIGRATIONS } from './integrations';
import { ORDER_MIGRATIONS } from './orders';
import { PROGRAMME_MIGRATIONS } from './programme';
import { RECORDS_MIGRATIONS } from './records';
import { TOPUP_MIGRATIONS } from './topups';
import { WEBHOOK_MIGRATIONS } from './webhook';

/** Records index and read the order journal, so the orders' tables come first. */
export const SCHEMA: readonly Migration[] = [
  ...ORDER_MIGRATIONS,
  ...TOPUP_MIGRATIONS,
  ...WEBHOOK_MIGRATIONS,
  ...RECORDS_MIGRATIONS,
  ...HUB_LINK_MIGRATIONS,
  ...PROGRAMME_MIGRATIONS,
  ...INTEGRATION_MIGRATIONS,
  ...CATALOGUE_MIGRATIONS,
  ...CASE_MIGRATIONS,
];

/**
 * The journal database at `file` with the whole schema (or, for a test of an upgrade, older migrations).
 * @internal for tests
 */
export function openJournalDb(file: string, opts: Partial<OpenOptions> = {}): Db {
  return openDatabase(file, { migrations: opts.migrations ?? SCHEMA });
}
