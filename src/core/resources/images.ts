// POST /api/v1/images/generations. Never retried automatically: every attempt costs money.
import type { Transport } from '../http';
import { parseImageResult } from '../parse/resources';
import type { RequestOptions } from '../types/common';
import type { ImageGenerationRequest, ImageGenerationResult } from '../types/media';
import { InvalidRequestError } from '../errors';
import { imagesAnswerCap } from '../limits';
import { checkInteger, checkOneOf, requireObject, requireString } from '../validate';

export function validateImageRequest(req: ImageGenerationRequest): void {
  requireObject('request', req);
  requireString('prompt', req.prompt);
  if (req.model !== undefined && typeof req.model !== 'string') throw new InvalidRequestError('model', 'model must be a string');
  checkInteger('n', req.n, 1, 10);
  checkOneOf('response_format', req.response_format, ['url', 'b64_json']);
}

export class ImagesResource {
  constructor(private readonly transport: Transport) {}

  async generate(req: ImageGenerationRequest, opts?: RequestOptions): Promise<ImageGenerationResult> {
    validateImageRequest(req);
    return parseImageResult(await this.transport.json({ method: 'POST', path: '/images/generations', json: req, retryable: false, options: opts, maxBytes: imagesAnswerCap(req.n ?? 1) }));
  }
}
