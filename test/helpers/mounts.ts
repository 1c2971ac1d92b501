// Small throwaway file systems for bad-day tests: a tmpfs of a given size (a disk that fills up)
// or read-only. Mounting needs root (CI runs as root); elsewhere `mountTmpfs` answers why not, and
// the test prints that reason and skips.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Mount {
  dir: string;
  unmount(): void;
}

export function mountTmpfs(opts: { sizeBytes: number; readOnly?: boolean }): Mount | { skip: string } {
  if (process.platform !== 'linux') return { skip: 'tmpfs mounts are a Linux feature' };
  const dir = mkdtempSync(join(tmpdir(), 'counterpay-mnt-'));
  const options = [`size=${opts.sizeBytes}`, 'mode=0700', ...(opts.readOnly ? ['ro'] : [])].join(',');
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', dir], { encoding: 'utf8' });
  if (r.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    return { skip: `mount is not permitted here (${(r.stderr || r.error?.message || `exit ${r.status}`).trim()})` };
  }
  return {
    dir,
    unmount() {
      spawnSync('umount', ['-l', dir]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
