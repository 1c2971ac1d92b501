// Makes the data folder usable before anything opens a file in it, or says in one sentence why it
// cannot be used. Every check is synchronous and bounded: a bad folder must never hang the start.
// Node's recursive mkdir loops forever on some pseudo file systems (`/proc/nope` answers ENOENT
// for a parent that exists), so folders are created one level at a time here.
import {
  accessSync,
  chmodSync,
  closeSync,
  constants,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  statSync,
  statfsSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';

/**
 * Exit codes of the shells when the data folder cannot be used (documented in the README).
 * @internal for tests
 */
export const EXIT_DATA_DIR_UNUSABLE = 3;
/** @internal for tests */
export const EXIT_DATA_DIR_LOCKED = 4;

type DataDirProblem =
  | 'not-absolute'
  | 'is-a-file'
  | 'pseudo-fs'
  | 'cannot-create'
  | 'unreadable'
  | 'read-only'
  | 'not-writable'
  | 'disk-full'
  | 'locked';

export class DataDirError extends Error {
  readonly problem: DataDirProblem;
  readonly exitCode: number;
  override readonly cause?: unknown;
  constructor(problem: DataDirProblem, sentence: string, cause?: unknown) {
    super(sentence);
    this.name = 'DataDirError';
    this.problem = problem;
    this.exitCode = problem === 'locked' ? EXIT_DATA_DIR_LOCKED : EXIT_DATA_DIR_UNUSABLE;
    if (cause !== undefined) this.cause = cause;
  }
}

/** statfs magic numbers of Linux file systems that cannot keep files (proc, sysfs, cgroups, ...). */
const PSEUDO_FS: Record<number, string> = {
  0x9fa0: 'proc',
  0x62656572: 'sysfs',
  0x1cd1: 'devpts',
  0x27e0eb: 'cgroup',
  0x63677270: 'cgroup2',
  0x64626720: 'debugfs',
  0x73636673: 'securityfs',
  0x74726163: 'tracefs',
  0x6165676c: 'pstore',
  0xcafe4a11: 'bpf',
  0x42494e4d: 'binfmt_misc',
  0x19800202: 'mqueue',
};

const codeOf = (e: unknown) => (e as NodeJS.ErrnoException | undefined)?.code ?? '';

function pseudoFsName(path: string): string | null {
  try {
    return PSEUDO_FS[Number(statfsSync(path).type)] ?? null;
  } catch {
    return null; // statfs is not everywhere (older Windows); the write probe below still decides
  }
}

function explain(dir: string, e: unknown, doing: string): DataDirError {
  const code = codeOf(e);
  if (code === 'EROFS')
    return new DataDirError(
      'read-only',
      `The data folder ${dir} is on a read-only disk; choose a folder on a writable disk with --data-dir.`,
      e,
    );
  if (code === 'ENOSPC' || code === 'EDQUOT')
    return new DataDirError(
      'disk-full',
      `The disk holding the data folder ${dir} is full; free some space, then start CounterPay again.`,
      e,
    );
  if (code === 'EACCES' || code === 'EPERM')
    return new DataDirError(
      doing === 'read' ? 'unreadable' : 'not-writable',
      `This user account may not ${doing} the data folder ${dir}; fix its permissions or choose another folder with --data-dir.`,
      e,
    );
  if (code === 'ENOTDIR' || code === 'EEXIST')
    return new DataDirError(
      'is-a-file',
      `A part of the data folder path ${dir} is a file, not a folder; choose another folder with --data-dir.`,
      e,
    );
  return new DataDirError(
    'cannot-create',
    `CounterPay cannot ${doing} the data folder ${dir} (${code || String(e)}); choose another folder with --data-dir.`,
    e,
  );
}

/** Creates the folder (0700) if needed, makes it 0700, and proves it can be read and written. */
export function prepareDataDir(dir: string): void {
  if (!isAbsolute(dir)) throw new DataDirError('not-absolute', `The data folder must be a full path (got ${dir}).`);
  // Walk up to the nearest path that exists, noting the levels to create.
  const missing: string[] = [];
  let probe = dir;
  for (;;) {
    try {
      const st = statSync(probe);
      if (!st.isDirectory()) {
        throw new DataDirError(
          'is-a-file',
          probe === dir
            ? `The data folder ${dir} is a file, not a folder; choose another folder with --data-dir or move the file away.`
            : `A part of the data folder path (${probe}) is a file, not a folder; choose another folder with --data-dir.`,
        );
      }
      break;
    } catch (e) {
      if (e instanceof DataDirError) throw e;
      if (codeOf(e) !== 'ENOENT') throw explain(dir, e, 'read');
      const parent = dirname(probe);
      if (parent === probe) throw explain(dir, e, 'create');
      missing.unshift(probe);
      probe = parent;
    }
  }
  const fs = pseudoFsName(probe);
  if (fs)
    throw new DataDirError(
      'pseudo-fs',
      `The data folder ${dir} is on the system's ${fs} file system, which cannot keep files; choose a normal folder with --data-dir.`,
    );
  for (const level of missing) {
    try {
      mkdirSync(level, { mode: 0o700 });
    } catch (e) {
      if (codeOf(e) === 'EEXIST') continue; // made by someone else meanwhile
      throw explain(dir, e, 'create');
    }
  }
  try {
    chmodSync(dir, 0o700); // the folder holds keys and the PIN hash: this user only, at every start
  } catch (e) {
    throw explain(dir, e, 'change the permissions of');
  }
  try {
    readdirSync(dir);
    accessSync(dir, constants.R_OK | constants.W_OK | constants.X_OK);
  } catch (e) {
    throw explain(dir, e, 'read');
  }
  const testFile = join(dir, `.write-test-${process.pid}`);
  try {
    const fd = openSync(testFile, 'w', 0o600);
    try {
      writeSync(fd, 'CounterPay checks that it can write here.\n');
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    unlinkSync(testFile);
  } catch (e) {
    try {
      unlinkSync(testFile);
    } catch {
      /* it was never made */
    }
    throw explain(dir, e, 'write to');
  }
}

/** Files that hold keys, the PIN hash or sales: this user only. Missing files are skipped. */
export function tightenFileModes(files: string[]): void {
  for (const f of files) {
    try {
      chmodSync(f, 0o600);
    } catch (e) {
      if (codeOf(e) !== 'ENOENT') throw e;
    }
  }
}
