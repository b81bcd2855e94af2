import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { foldCase, secretForms } from '../../src/core/secrets/secretForms';

/** ASCII letters lower-cased in place, byte by byte: the same for UTF-8 and UTF-16LE text. */
function foldBytes(bytes: Buffer): Buffer {
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i] as number;
    if (byte >= 0x41 && byte <= 0x5a) bytes[i] = byte + 0x20;
  }
  return bytes;
}

/**
 * Lists every file under `dir` whose bytes contain `secret` in any form a reader could recover
 * (secretForms.ts: plain, JSON-escaped, URL-encoded, base64 alone or inside a longer string,
 * hex), in any letter case, as UTF-8 or UTF-16LE.
 */
export function findSecretLeaks(dir: string, secret: string): string[] {
  const needles = [...new Set(secretForms(secret).map(foldCase))].flatMap((form) => [
    Buffer.from(form, 'utf8'),
    Buffer.from(form, 'utf16le'),
  ]);
  const leaks: string[] = [];
  const walk = (path: string): void => {
    let stats;
    try {
      stats = lstatSync(path);
    } catch {
      return;
    }
    if (stats.isDirectory()) {
      for (const name of readdirSync(path)) walk(join(path, name));
    } else if (stats.isFile()) {
      const bytes = foldBytes(readFileSync(path));
      if (needles.some((needle) => bytes.includes(needle))) leaks.push(path);
    }
  };
  walk(dir);
  return leaks;
}
