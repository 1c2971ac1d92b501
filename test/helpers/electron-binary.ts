// Finds the Electron binary without requiring `electron` (which would try to download it).
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export function electronBinary(root = resolve(__dirname, '../..')): { path: string } | { missing: string } {
  const pkg = join(root, 'node_modules/electron');
  const pathFile = join(pkg, 'path.txt');
  if (!existsSync(pathFile))
    return {
      missing: `the Electron runtime is not installed here (${pathFile} does not exist; it is downloaded on first launch and this machine cannot download it)`,
    };
  const bin = join(pkg, 'dist', readFileSync(pathFile, 'utf8').trim());
  if (!existsSync(bin)) return { missing: `the Electron binary ${bin} is missing` };
  return { path: bin };
}
