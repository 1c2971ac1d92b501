// PGlite may be opened by one process at a time, and does not check: two Hubs on one data folder
// would corrupt it. A lock file with the owner's pid guards the folder; a lock left by a process
// that no longer runs (kill -9, power cut) is taken over.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export class FolderLockedError extends Error {
  readonly code = 'HUB_DATA_DIR_LOCKED';
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** Takes the folder's lock; returns the function that releases it. */
export function lockFolder(dir: string): () => void {
  const file = join(dir, 'hub.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx' });
      return () => rmSync(file, { force: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const pid = Number(readFileSync(file, 'utf8').trim());
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid)) {
        throw new FolderLockedError(
          `the data folder ${dir} is in use by another Hub (pid ${pid}): stop it first, or use the admin API of the running Hub`,
        );
      }
      rmSync(file, { force: true }); // stale: its process is gone
    }
  }
  throw new FolderLockedError(`could not lock the data folder ${dir}`);
}
