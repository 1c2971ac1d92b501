// The db module's public face: what other modules may import.
export { type Db, migrate, openDatabase } from './database';
