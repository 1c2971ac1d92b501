// The data-folder module's public face: what other modules may import.
export { copyAtomic, keepLastGood, withLastGood } from './json-recovery';
export { openDataFolder, secretsFile, settingsFile } from './open-data-folder';
export { DataDirError, prepareDataDir, tightenFileModes } from './prepare-dir';
