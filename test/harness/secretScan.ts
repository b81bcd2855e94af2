import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { secretForms } from '../../src/core/redact';

/**
 * Lists every file under `dir` whose bytes contain `secret` in any form a reader could recover:
 * plain, JSON-escaped (also with `\/`) or URL-encoded, as UTF-8 or UTF-16LE.
 */
export function findSecretLeaks(dir: string, secret: string): string[] {
  const needles = secretForms(secret).flatMap((form) => [Buffer.from(form, 'utf8'), Buffer.from(form, 'utf16le')]);
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
