// The backup module's public face: what other modules may import.
export { createBackupsModule, type RestartWithJournal } from './backups-module';
export { readDisk } from './disk-space';
export { checkJournalFile, finishInterruptedRestore, journalPath, openJournalChecked, swapInJournal } from './journal-file';
