// The Hub's log file: JSON lines appended to FILE, rotated by size (FILE.1 is the newest old file,
// FILE.<keep> the oldest, then dropped), so a Hub left running for months never fills its disk.
import { appendFileSync, chmodSync, existsSync, renameSync, rmSync, statSync } from 'node:fs';

interface RotatingFile {
  write(line: string): void;
}

/** Log lines hold hashes, journals and callbacks: readable by the Hub's user only (0600). */
export function rotatingFile(file: string, maxBytes: number, keep: number): RotatingFile {
  let size = existsSync(file) ? statSync(file).size : 0;
  if (existsSync(file)) chmodSync(file, 0o600);
  const rotate = () => {
    rmSync(`${file}.${keep}`, { force: true });
    for (let i = keep - 1; i >= 1; i--) if (existsSync(`${file}.${i}`)) renameSync(`${file}.${i}`, `${file}.${i + 1}`);
    if (existsSync(file)) renameSync(file, `${file}.1`);
    size = 0;
  };
  return {
    write(line: string) {
      const bytes = Buffer.byteLength(line);
      if (size > 0 && size + bytes > maxBytes) rotate();
      // Synchronous: a line logged just before a crash is on disk.
      appendFileSync(file, line, { mode: 0o600 });
      size += bytes;
    },
  };
}
