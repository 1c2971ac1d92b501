// Free space on the disk that holds the data folder, for the status bar: a warning before a full
// disk refuses sales and backups.
import { statfsSync } from 'node:fs';
import { LOW_DISK_BYTES, type DiskStatus } from '../../shared/backups';

const mb = (bytes: number) => Math.floor(bytes / (1024 * 1024));

export function readDisk(dir: string, lowBytes = LOW_DISK_BYTES): DiskStatus {
  try {
    const s = statfsSync(dir);
    const free = Number(s.bavail) * Number(s.bsize);
    if (free < lowBytes) {
      return {
        state: 'low',
        freeBytes: free,
        detail: `Only ${mb(free)} MB free on the disk of ${dir}. Free some space: when it is full, sales and backups stop.`,
      };
    }
    return { state: 'ok', freeBytes: free, detail: `${mb(free)} MB free on the disk of ${dir}` };
  } catch (e) {
    return {
      state: 'unknown',
      freeBytes: null,
      detail: `Free space could not be read (${e instanceof Error ? e.message : String(e)})`,
    };
  }
}
