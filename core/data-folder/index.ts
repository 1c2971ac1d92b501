// The data-folder module's public face: what other modules may import. The files of the data folder:
// the folder itself, its lock, the settings files' last good copies, and the journal file (its
// check, a swap from a backup, a restore a kill interrupted). It imports db/ and nothing above.
export { copyAtomic, keepLastGood } from './json-recovery';
export {
  backupsFolder,
  checkJournalFile,
  countSalesAfter,
  finishInterruptedRestore,
  fsyncDir,
  fsyncPath,
  journalPath,
  openJournalChecked,
  stampOf,
  swapInJournal,
} from './journal-file';
export { openDataFolder, secretsFile, settingsFile } from './open-data-folder';
export { DataDirError, prepareDataDir, tightenFileModes } from './prepare-dir';
