/**
 * What a store left on disk, for tests that look for plaintext in it: every
 * file under a folder (SQLite's main file, -wal and -shm; the AOF of a
 * redis-server of the test's own, `ownRedis({ appendOnly: true })`).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

/** Every regular file under `dir`, recursively. */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    const stat = statSync(path);
    if (stat.isDirectory()) return filesUnder(path);
    return stat.isFile() ? [path] : [];
  });
}

/** Which of `needles` occur in which of `files` (bytes as UTF-8), as "needle-label in path". */
export function findInFiles(files: readonly string[], needles: ReadonlyMap<string, string>): string[] {
  const found: string[] = [];
  for (const file of files) {
    const bytes = readFileSync(file);
    for (const [label, needle] of needles) if (bytes.includes(Buffer.from(needle, "utf8"))) found.push(`${label} in ${file}`);
  }
  return found;
}

/** Which of `needles` occur in `text`, by label. */
export function findInText(text: string, needles: ReadonlyMap<string, string>): string[] {
  return [...needles].filter(([, needle]) => text.includes(needle)).map(([label]) => label);
}
