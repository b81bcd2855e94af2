// The gateway calls semantic search makes, with the model choice and the connection's bookkeeping
// (model use for the credits display, failures for the out-of-credits notice) in one place.
import type { EmbedBatch } from '../../core/search/semanticIndex';
import type { GatewayClient } from '../../core/transport/client';
import type { RerankItem } from '../../core/types/media';
import type { ModelCategoryName } from '../../shared/settings';
import type { Failures } from '../errors/failures';
import { SetupRequiredError } from '../../core/failures/setupError';
import type { GatewayConnection } from '../gateway/gatewayConnection';
import { modelFor } from '../models/catalogModels';
import type { ModelCatalog } from '../models/modelCatalog';

class SearchModelError extends Error {}

export interface SearchModelsDeps {
  readonly connection: GatewayConnection;
  readonly catalog: ModelCatalog;
  /** Reports each failure to the connection once (the command or tool around the request shows it). */
  readonly failures: Failures;
}

function client(deps: SearchModelsDeps): GatewayClient {
  const current = deps.connection.setup.client;
  if (!current) throw new SetupRequiredError('baseUrl');
  return current;
}

export async function chooseSearchModel(
  deps: SearchModelsDeps,
  category: Extract<ModelCategoryName, 'embedding' | 'rerank'>,
): Promise<string> {
  const chosen = await modelFor(deps.catalog, category);
  if (!chosen)
    throw new SearchModelError(
      `No ${category} model: the gateway lists none, and unifiedInference.defaultModels.${category} is not set.`,
    );
  return chosen.id;
}

/**
 * Tells the connection a model was used (the credits display refreshes). A failure is passed on
 * unreported: whoever ends it reports it once, saying whether it showed it (a command's
 * notification), or not (a file-change update, a rerank that falls back to the cosine order, a
 * tool's result), which the out-of-credits notice needs to know.
 */
async function countingUse<T>(deps: SearchModelsDeps, work: () => Promise<T>): Promise<T> {
  const value = await work();
  deps.connection.reportModelUse();
  return value;
}

/** An EmbedBatch on `model`; base64 halves the bytes on the wire (the client decodes it to numbers). */
export function gatewayEmbedder(deps: SearchModelsDeps, model: string, dimensions?: number): EmbedBatch {
  return (texts, signal) =>
    countingUse(deps, async () => {
      const list = await client(deps).embeddings.create(
        { model, input: texts, encoding_format: 'base64', ...(dimensions ? { dimensions } : {}) },
        { signal },
      );
      return [...list.data].sort((a, b) => a.index - b.index).map((item) => item.embedding);
    });
}

export function gatewayRerank(
  deps: SearchModelsDeps,
  model: string,
  query: string,
  documents: string[],
  topN: number,
  signal?: AbortSignal,
): Promise<RerankItem[]> {
  return countingUse(
    deps,
    async () =>
      (
        await client(deps).rerank.create(
          { model, query, documents, top_n: Math.min(topN, documents.length) },
          { signal },
        )
      ).results,
  );
}
