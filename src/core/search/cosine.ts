// Cosine similarity over a flat array of unit vectors: a dot product each, best k kept.

export interface ScoredIndex {
  readonly index: number;
  readonly score: number;
}

/** `vector` scaled to length 1 (a zero vector stays zero: it matches nothing). */
export function normalize(vector: ArrayLike<number>): Float32Array {
  let norm = 0;
  for (let i = 0; i < vector.length; i++) norm += (vector[i] ?? 0) ** 2;
  const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  return Float32Array.from({ length: vector.length }, (_, i) => (vector[i] ?? 0) * scale);
}

/**
 * The `k` vectors of `vectors` (`count` unit vectors of `dimensions` floats, back to back) most
 * similar to `query`, best first. The stored vectors are unit length, so cosine is the dot
 * product with the normalised query. The best k are kept in a small sorted array: k is tens and
 * the count up to hundreds of thousands, so a full sort would cost more than the products.
 */
export function topK(vectors: Float32Array, dimensions: number, count: number, query: ArrayLike<number>, k: number): ScoredIndex[] {
  if (query.length !== dimensions) throw new Error(`The query has ${query.length} dimensions, the index ${dimensions}.`);
  const q = normalize(query);
  const best: ScoredIndex[] = [];
  let floor = -Infinity;
  for (let row = 0; row < count; row++) {
    const offset = row * dimensions;
    let dot = 0;
    for (let i = 0; i < dimensions; i++) dot += (vectors[offset + i] as number) * (q[i] as number);
    if (best.length >= k && dot <= floor) continue;
    let at = best.length;
    while (at > 0 && (best[at - 1] as ScoredIndex).score < dot) at--;
    best.splice(at, 0, { index: row, score: dot });
    if (best.length > k) best.pop();
    if (best.length >= k) floor = (best[best.length - 1] as ScoredIndex).score;
  }
  return best;
}
