import { fnv1a, words } from './text';

/**
 * Feature hashing: every word (weight 1) and every character trigram of each word (weight 0.3)
 * adds ±weight to one coordinate chosen by its hash, then the vector is L2-normalised. Texts that
 * share words share coordinates, so their cosine similarity is higher; the same text always gives
 * the same vector.
 */
export function embedText(text: string, dimensions: number): Float32Array {
  const vector = new Float64Array(dimensions);
  const add = (feature: string, weight: number): void => {
    const h = fnv1a(feature);
    const sign = (fnv1a(feature, 0x9747b28c) & 1) === 0 ? 1 : -1;
    vector[h % dimensions] = (vector[h % dimensions] ?? 0) + sign * weight;
  };
  for (const word of words(text)) {
    add(`w:${word}`, 1);
    const padded = `^${word}$`;
    for (let i = 0; i + 3 <= padded.length; i++) add(`t:${padded.slice(i, i + 3)}`, 0.3);
  }
  let norm = 0;
  for (const v of vector) norm += v * v;
  if (norm === 0) {
    vector[0] = 1; // text with no words: a fixed unit vector rather than NaNs
    norm = 1;
  }
  const scale = 1 / Math.sqrt(norm);
  return Float32Array.from(vector, (v) => v * scale);
}

/** Base64 of the vector as little-endian float32, whatever the host's byte order. */
export function float32Base64(vector: Float32Array): string {
  const bytes = Buffer.alloc(vector.length * 4);
  vector.forEach((v, i) => bytes.writeFloatLE(v, i * 4));
  return bytes.toString('base64');
}
