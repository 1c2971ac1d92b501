// The backup module's public face: what other modules may import. The journal file it copies and
// restores is the data folder's (core/data-folder): backup imports data-folder, never the reverse.
export { createBackupsModule, type RestartWithJournal } from './backups-module';
export { readDisk } from './disk-space';
