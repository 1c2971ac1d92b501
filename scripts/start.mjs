// `npm start`: launch the built Electron app; when the Electron runtime cannot be started,
// say so in one line and start the browser shell instead.
import { spawn, spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const extra = process.argv.slice(2);

function electronPath() {
  // Resolving `electron` downloads the runtime on first use; here that may fail.
  const probe = spawnSync(process.execPath, ['-e', "process.stdout.write(require('electron'))"], {
    cwd: root,
    encoding: 'utf8',
    timeout: 10 * 60_000,
  });
  if (probe.status === 0 && probe.stdout) return { path: probe.stdout };
  const why =
    (probe.stderr || probe.error?.message || 'unknown error').split('\n').find((l) => /Error|error|failed/.test(l)) ??
    'it could not be installed';
  return { error: why.trim().replace(/^Error:\s*/, '') };
}

function startBrowserShell() {
  const tsx = join(root, 'node_modules/.bin/tsx');
  const child = spawn(tsx, ['browser-shell/cli.ts', ...extra], { cwd: root, stdio: 'inherit' });
  child.on('exit', (code) => process.exit(code ?? 0));
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
}

const found = electronPath();
if ('error' in found) {
  console.log(
    `Electron runtime not available (its download or start failed: ${found.error}); starting the browser shell instead.`,
  );
  startBrowserShell();
} else {
  const child = spawn(found.path, [root, ...extra], { cwd: root, stdio: 'inherit' });
  child.on('error', (e) => {
    console.log(`Electron could not be started (${e.message}); starting the browser shell instead.`);
    startBrowserShell();
  });
  child.on('exit', (code, signal) => {
    if (code !== 0 && signal === null && code !== null && code !== 130) {
      console.log(`Electron exited with code ${code}; starting the browser shell instead.`);
      startBrowserShell();
    } else process.exit(code ?? 0);
  });
}
