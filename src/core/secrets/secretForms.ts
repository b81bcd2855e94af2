// The spellings of a secret that a reader could recover from text: the key itself, its JSON and
// URL escapes, and the forms a proxy or a model re-encodes it into (base64, standard and
// URL-safe, alone or inside a longer base64 string; hex). Matching ignores ASCII letter case, so
// `SIM/KEY`, upper-case hex and any casing of the rest are found too. Forms are computed once
// per secret; finding them is one indexOf scan per form over the text: linear in the text.

/** Shorter secrets are never searched for: they would shred ordinary text. */
export const MIN_SECRET_LENGTH = 4;
/**
 * Encoded forms only from this length: base64 of a short key inside a longer string keeps only a
 * few stable characters, and a short run of hex or base64 would match ordinary text by chance.
 */
const MIN_ENCODED_LENGTH = 8;

/** ASCII letters lower-cased, every other character kept: same length, so indexes line up. */
export function foldCase(text: string): string {
  return /[A-Z]/.test(text) ? text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase()) : text;
}

function urlSafe(base64: string): string {
  return base64.replace(/\+/g, '-').replace(/\//g, '_');
}

/**
 * The base64 characters that depend on `bytes` alone, at each of the three byte offsets the
 * bytes can start at inside a longer encoded string (`user:key` in a Basic header, a JSON blob):
 * what comes before or after changes only the characters at the edges.
 */
function base64Forms(bytes: Buffer): string[] {
  const forms = [bytes.toString('base64'), bytes.toString('base64').replace(/=+$/, '')];
  for (let offset = 0; offset < 3; offset++) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
    const first = Math.ceil((offset * 8) / 6);
    const end = Math.floor(((offset + bytes.length) * 8) / 6);
    forms.push(encoded.slice(first, end));
  }
  return forms.flatMap((form) => [form, urlSafe(form)]);
}

/** Every form of `secret` (see the file comment), longest first; empty for a secret too short to search for. */
export function secretForms(secret: string): string[] {
  if (secret.length < MIN_SECRET_LENGTH) return [];
  const json = JSON.stringify(secret).slice(1, -1);
  const forms = [secret, json, json.replace(/\//g, '\\/'), encodeURIComponent(secret)];
  if (secret.length >= MIN_ENCODED_LENGTH) {
    // A header value goes out as Latin-1 bytes; a proxy that re-encodes text may use UTF-8.
    for (const bytes of [Buffer.from(secret, 'utf8'), Buffer.from(secret, 'latin1')])
      forms.push(...base64Forms(bytes), bytes.toString('hex'));
  }
  return [...new Set(forms.filter((form) => form.length >= MIN_SECRET_LENGTH))].sort((a, b) => b.length - a.length);
}

/** The case-folded forms of several secrets, and the longest (how much a stream must hold back). */
export interface SecretPatterns {
  readonly forms: readonly string[];
  readonly longest: number;
}

const cache = new Map<string, readonly string[]>();
const CACHE_LIMIT = 32;

function foldedForms(secret: string): readonly string[] {
  let forms = cache.get(secret);
  if (forms === undefined) {
    forms = [...new Set(secretForms(secret).map(foldCase))];
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(secret, forms);
  }
  return forms;
}

export function secretPatterns(secrets: readonly (string | undefined)[]): SecretPatterns {
  const forms = [...new Set(secrets.flatMap((secret) => (secret ? foldedForms(secret) : [])))];
  return { forms, longest: forms.reduce((max, form) => Math.max(max, form.length), 0) };
}

/**
 * Where the forms occur in `folded` (text already passed through foldCase), as sorted,
 * non-overlapping [start, end) ranges: overlapping and nested occurrences are merged.
 */
export function secretRanges(folded: string, patterns: SecretPatterns): [number, number][] {
  const found: [number, number][] = [];
  for (const form of patterns.forms) {
    for (let at = folded.indexOf(form); at >= 0; at = folded.indexOf(form, at + form.length))
      found.push([at, at + form.length]);
  }
  if (found.length < 2) return found;
  found.sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [found[0] as [number, number]];
  for (const range of found.slice(1)) {
    const last = merged[merged.length - 1] as [number, number];
    if (range[0] < last[1]) last[1] = Math.max(last[1], range[1]);
    else merged.push(range);
  }
  return merged;
}

/** `text` with each range replaced by `replacement`. */
export function replaceRanges(
  text: string,
  ranges: readonly (readonly [number, number])[],
  replacement: string,
): string {
  if (ranges.length === 0) return text;
  let out = '';
  let from = 0;
  for (const [start, end] of ranges) {
    out += text.slice(from, start) + replacement;
    from = end;
  }
  return out + text.slice(from);
}
