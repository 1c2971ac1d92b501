// The database's one ordered list of migrations. Each table has one owner, which writes its own
// migrations next to its code; this list only says in which order they run on a new file. A name
// once shipped never changes (existing files know their applied migrations by name), and new
// migrations go at the end of their owner's list.
// The one place allowed past the owners' index files: an index pulls in the whole module, which
// uses the database, and would form an import cycle with this list.
/* eslint-disable no-restricted-imports */
import { HUB_MIGRATIONS } from '../hub-link/hub-migrations';
import { INTEGRATION_MIGRATIONS } from '../integrations/integration-migrations';
import { ORDER_MIGRATIONS } from '../orders/order-migrations';
import { PROGRAMME_MIGRATIONS } from '../programme/programme-migrations';
import { RECORDS_MIGRATIONS } from '../records/records-migrations';
import { TOPUP_MIGRATIONS } from '../topups/topup-migrations';
import { WEBHOOK_MIGRATIONS } from '../webhook/webhook-store';
/* eslint-enable no-restricted-imports */

export interface Migration {
  /** `<owner>-<nnn>-<what>`: the key in schema_migrations. */
  name: string;
  sql: string;
}

/** Records index and read the order journal, so the orders' tables come first. */
export const SCHEMA: readonly Migration[] = [...ORDER_MIGRATIONS, ...TOPUP_MIGRATIONS, ...WEBHOOK_MIGRATIONS, ...RECORDS_MIGRATIONS, ...HUB_MIGRATIONS, ...PROGRAMME_MIGRATIONS, ...INTEGRATION_MIGRATIONS];
