import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Lists every file under `dir` whose bytes contain `secret` (as UTF-8 or UTF-16LE). */
export function findSecretLeaks(dir: string, secret: string): string[] {
  const needles = [Buffer.from(secret, 'utf8'), Buffer.from(secret, 'utf16le')];
  const leaks: string[] = [];
  const walk = (path: string): void => {
    let stats;
    try { stats = lstatSync(path); } catch { return; }
    if (stats.isDirectory()) {
      for (const name of readdirSync(path)) walk(join(path, name));
    } else if (stats.isFile()) {
      const bytes = readFileSync(path);
      if (needles.some((needle) => bytes.includes(needle))) leaks.push(path);
    }
  };
  walk(dir);
  return leaks;
}
