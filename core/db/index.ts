// The db module's public face: what other modules may import.
export { type Db, type Migration, type OpenOptions, migrate, openDatabase } from './database';
export { SCHEMA } from './schema';
