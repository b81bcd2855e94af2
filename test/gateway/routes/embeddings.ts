import { lookupModel } from '../catalog';
import type { Route, RouteContext } from '../context';
import { embedText, float32Base64 } from '../embedding';
import { badRequest } from '../errors';
import { countTokens } from '../text';
import { optionalEnum, optionalInteger, type JsonObject } from '../validate';

/** The input as a list of texts: a string, or an array of non-empty strings (at most 2048, as OpenAI allows). */
function inputs(body: JsonObject): string[] {
  const input = body.input;
  if (input === undefined || input === null)
    throw badRequest('input', "'input' is required", 'missing_required_parameter');
  const list = typeof input === 'string' ? [input] : input;
  if (!Array.isArray(list))
    throw badRequest('input', "'input' must be a string or an array of strings", 'invalid_type');
  if (list.length === 0 || list.length > 2048) throw badRequest('input', "'input' must hold 1 to 2048 strings");
  return list.map((item, i) => {
    if (typeof item !== 'string') throw badRequest(`input[${i}]`, `'input[${i}]' must be a string`, 'invalid_type');
    if (item === '') throw badRequest(`input[${i}]`, `'input[${i}]' must not be empty`);
    return item;
  });
}

async function handleEmbeddings(ctx: RouteContext): Promise<void> {
  const body = await ctx.jsonBody();
  const modelId = await ctx.takeModel(body);
  const model = lookupModel(modelId, 'embedding');
  const texts = inputs(body);
  const format = optionalEnum(body, 'encoding_format', ['float', 'base64'] as const) ?? 'float';
  const maxDims = model.dimensions ?? 256;
  const requested = optionalInteger(body, 'dimensions', 1, maxDims);
  if (requested !== undefined && !model.supportsDimensions) {
    throw badRequest(
      'dimensions',
      `'dimensions' is not supported by ${modelId}; only the text-embedding-sim-small and -large models support it`,
      'unsupported_parameter',
    );
  }
  const dims = requested ?? maxDims;
  ctx.state.quota.ensure(ctx.key);
  const tokens = texts.reduce((sum, t) => sum + countTokens(t), 0);
  ctx.state.quota.charge(ctx.key, (tokens * (model.pricing.input ?? 0)) / 1e6);
  const data = texts.map((text, index) => {
    const vector = embedText(text, dims);
    return { object: 'embedding', index, embedding: format === 'base64' ? float32Base64(vector) : Array.from(vector) };
  });
  await ctx.reply.json(200, {
    object: 'list',
    data,
    model: modelId,
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  });
}

export const embeddingsRoutes: readonly Route[] = [
  {
    method: 'POST',
    pattern: /^\/api\/v1\/embeddings$/,
    shape: 'openai',
    auth: true,
    faultFromModel: true,
    handle: handleEmbeddings,
  },
];
