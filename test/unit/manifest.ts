// package.json as VS Code shows it: every "%key%" replaced by its English text from
// package.nls.json (tests that check a title or description read it through here).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const REPO_ROOT = join(__dirname, '..', '..', '..');

/** The same pattern VS Code's manifest localization uses: the whole string is one %key%. */
export const NLS_PLACEHOLDER = /^%([\w.-]+)%$/;

export function readRawManifest(): unknown {
  return JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as unknown;
}

export function readNls(): Record<string, string> {
  return JSON.parse(readFileSync(join(REPO_ROOT, 'package.nls.json'), 'utf8')) as Record<string, string>;
}

/** package.json with its placeholders resolved; a placeholder without a text stays as it is. */
export function readManifest<T>(): T {
  const nls = readNls();
  const resolve = (value: unknown): unknown => {
    if (typeof value === 'string') {
      const key = NLS_PLACEHOLDER.exec(value)?.[1];
      return key !== undefined && Object.hasOwn(nls, key) ? nls[key] : value;
    }
    if (Array.isArray(value)) return value.map(resolve);
    if (value !== null && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(v)]));
    return value;
  };
  return resolve(readRawManifest()) as T;
}
