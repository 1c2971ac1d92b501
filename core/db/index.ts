// The db module's public face: what other modules may import. It depends on nothing of the core:
// the owners write their migrations, the root (core/schema.ts) puts them in order.
export { type Db, type Migration, type OpenOptions, migrate, openDatabase } from './database';
