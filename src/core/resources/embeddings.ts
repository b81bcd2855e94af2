// POST /api/v1/embeddings and POST /api/v1/rerank.
import type { Transport } from '../transport/transport';
import { InvalidRequestError } from '../errors';
import { embeddingsAnswerCap, rerankAnswerCap } from '../limits';
import { parseEmbeddingList, parseRerankResult } from '../parse/resources';
import type { RequestOptions } from '../types/common';
import type { EmbeddingList, EmbeddingRequest, RerankRequest, RerankResult } from '../types/media';
import { checkInteger, checkOneOf, requireArray, requireObject, requireString } from '../transport/validate';

function validateEmbeddingRequest(req: EmbeddingRequest): void {
  requireObject('request', req);
  requireString('model', req.model);
  const input = req.input;
  if (Array.isArray(input)) {
    requireArray('input', input);
    input.forEach((item, i) => {
      if (typeof item !== 'string') throw new InvalidRequestError(`input[${i}]`, `input[${i}] must be a string`);
    });
  } else if (typeof input !== 'string' || input === '') {
    throw new InvalidRequestError('input', 'input is required: a string or an array of strings');
  }
  checkOneOf('encoding_format', req.encoding_format, ['float', 'base64']);
  checkInteger('dimensions', req.dimensions, 1);
}

function validateRerankRequest(req: RerankRequest): void {
  requireObject('request', req);
  requireString('model', req.model);
  requireString('query', req.query);
  requireArray('documents', req.documents);
  req.documents.forEach((doc, i) => {
    if (typeof doc !== 'string') throw new InvalidRequestError(`documents[${i}]`, `documents[${i}] must be a string`);
  });
  checkInteger('top_n', req.top_n, 1);
}

export class EmbeddingsResource {
  constructor(private readonly transport: Transport) {}

  /** `embedding` is always number[]: base64 answers are decoded. */
  async create(req: EmbeddingRequest, opts?: RequestOptions): Promise<EmbeddingList> {
    validateEmbeddingRequest(req);
    return parseEmbeddingList(
      await this.transport.json({
        method: 'POST',
        path: '/embeddings',
        json: req,
        retryable: true,
        options: opts,
        maxBytes: embeddingsAnswerCap(Array.isArray(req.input) ? req.input.length : 1),
      }),
    );
  }
}

export class RerankResource {
  constructor(private readonly transport: Transport) {}

  async create(req: RerankRequest, opts?: RequestOptions): Promise<RerankResult> {
    validateRerankRequest(req);
    return parseRerankResult(
      await this.transport.json({
        method: 'POST',
        path: '/rerank',
        json: req,
        retryable: true,
        options: opts,
        maxBytes: rerankAnswerCap(req.documents),
      }),
    );
  }
}
