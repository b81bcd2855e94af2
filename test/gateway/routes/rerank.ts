import { randomUUID } from 'node:crypto';
import { lookupModel } from '../catalog';
import type { Route, RouteContext } from '../context';
import { badRequest } from '../errors';
import { countTokens, words } from '../text';
import { isObject, optionalArray, optionalBoolean, optionalInteger, requireString } from '../validate';

/**
 * Okapi BM25 (k1 = 1.2, b = 0.75) with the given documents as the corpus, squashed into 0..1 by
 * s / (s + 1) so scores look like a reranker's relevance and keep BM25's order.
 */
function bm25Scores(query: string, documents: readonly string[]): number[] {
  const k1 = 1.2;
  const b = 0.75;
  const docs = documents.map(words);
  const avgLength = docs.reduce((sum, d) => sum + d.length, 0) / Math.max(1, docs.length) || 1;
  const terms = [...new Set(words(query))];
  const df = new Map(terms.map((t) => [t, docs.filter((d) => d.includes(t)).length]));
  return docs.map((doc) => {
    let score = 0;
    for (const term of terms) {
      const tf = doc.filter((w) => w === term).length;
      if (tf === 0) continue;
      const n = df.get(term) ?? 0;
      const idf = Math.log(1 + (docs.length - n + 0.5) / (n + 0.5));
      score += (idf * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * doc.length) / avgLength));
    }
    return score / (score + 1);
  });
}

async function handleRerank(ctx: RouteContext): Promise<void> {
  const body = await ctx.jsonBody();
  const modelId = await ctx.takeModel(body);
  const model = lookupModel(modelId, 'rerank');
  const query = requireString(body, 'query', { nonEmpty: true });
  const rawDocs = optionalArray(body, 'documents');
  if (!rawDocs) throw badRequest('documents', "'documents' is required", 'missing_required_parameter');
  if (rawDocs.length === 0 || rawDocs.length > 1000)
    throw badRequest('documents', "'documents' must hold 1 to 1000 documents");
  const documents = rawDocs.map((doc, i) => {
    if (typeof doc === 'string') return doc;
    if (isObject(doc) && typeof doc.text === 'string') return doc.text; // Cohere-style {text}
    throw badRequest(`documents[${i}]`, `'documents[${i}]' must be a string or {"text": string}`, 'invalid_type');
  });
  const topN = optionalInteger(body, 'top_n', 1) ?? documents.length;
  const returnDocuments = optionalBoolean(body, 'return_documents') ?? true;
  ctx.state.quota.ensure(ctx.key);
  const tokens = countTokens(query) * documents.length + documents.reduce((sum, d) => sum + countTokens(d), 0);
  ctx.state.quota.charge(ctx.key, (tokens * (model.pricing.input ?? 0)) / 1e6);
  const scores = bm25Scores(query, documents);
  const results = documents
    .map((text, index) => ({
      index,
      relevance_score: scores[index] ?? 0,
      ...(returnDocuments ? { document: { text } } : {}),
    }))
    .sort((a, b) => b.relevance_score - a.relevance_score || a.index - b.index)
    .slice(0, topN);
  await ctx.reply.json(200, { id: randomUUID(), model: modelId, results, usage: { total_tokens: tokens } });
}

export const rerankRoutes: readonly Route[] = [
  {
    method: 'POST',
    pattern: /^\/api\/v1\/rerank$/,
    shape: 'openai',
    auth: true,
    faultFromModel: true,
    handle: handleRerank,
  },
];
