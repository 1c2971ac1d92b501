// A throwaway real PostgreSQL cluster for tests: initdb in a temporary folder, started on a free
// loopback port, stopped and deleted afterwards. PostgreSQL refuses to run as root, so as root the
// cluster belongs to the unprivileged `postgres` user (runuser). Where no server is installed,
// `pgUnavailable` says why and the tests that need it are skipped.
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function findBinDir(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(root, versions[0], 'bin') : null;
}

const BIN = findBinDir();
const asRoot = process.getuid?.() === 0;

export const pgUnavailable: string | null = !BIN
  ? 'PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb); .ci/run installs it with apt-get'
  : asRoot && !hasUser('postgres')
    ? 'running as root but there is no unprivileged "postgres" user to own the cluster'
    : null;

function hasUser(name: string): boolean {
  try {
    execFileSync('id', ['-u', name], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => (typeof a === 'object' && a ? resolve(a.port) : reject(new Error('no port'))));
    });
  });
}

export interface PgCluster {
  url: string;
  /** A fresh empty database on the cluster; returns its URL. */
  createDatabase(name: string): string;
  stop(): void;
}

/** fsync is off by default (tests need no durability across a machine crash); the benchmark turns it on. */
export async function startPgCluster(o: { fsync?: boolean } = {}): Promise<PgCluster> {
  if (pgUnavailable || !BIN) throw new Error(pgUnavailable ?? 'no PostgreSQL');
  const dir = mkdtempSync(join(tmpdir(), 'hub-pg-'));
  const data = join(dir, 'data');
  const port = await freePort();
  const run = (cmd: string, args: string[]) => {
    const bin = join(BIN, cmd);
    if (asRoot) execFileSync('runuser', ['-u', 'postgres', '--', bin, ...args], { stdio: 'pipe' });
    else execFileSync(bin, args, { stdio: 'pipe' });
  };
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
    chmodSync(dir, 0o700);
  }
  run('initdb', ['-D', data, '-A', 'trust', '-U', 'hub', '--no-sync', '-E', 'UTF8']);
  run('pg_ctl', [
    '-D',
    data,
    '-w',
    '-l',
    join(dir, 'log'),
    '-o',
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=${o.fsync ? 'on' : 'off'} -c max_connections=100`,
    'start',
  ]);
  const url = `postgres://hub@127.0.0.1:${port}/postgres`;
  return {
    url,
    createDatabase(name) {
      run('psql', [
        '-h',
        dir,
        '-p',
        String(port),
        '-U',
        'hub',
        '-d',
        'postgres',
        '-q',
        '-c',
        `create database "${name}"`,
      ]);
      return `postgres://hub@127.0.0.1:${port}/${name}`;
    },
    stop() {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
