// POST /api/v1/images/generations. Never retried automatically: every attempt costs money.
import type { Transport } from '../transport/transport';
import { parseImageResult } from '../parse/resources';
import type { RequestOptions } from '../types/common';
import type { GeneratedImage, ImageGenerationRequest, ImageGenerationResult } from '../types/media';
import { ImageDownloadError, InvalidRequestError } from '../errors';
import { imageFromBase64 } from '../images/imageDownloader';
import type { DownloadedImage, ImageDownloader, ImageDownloadOptions } from '../images/imageDownloader';
import { imagesAnswerCap } from '../limits';
import { checkInteger, checkOneOf, requireObject, requireString } from '../transport/validate';

function validateImageRequest(req: ImageGenerationRequest): void {
  requireObject('request', req);
  requireString('prompt', req.prompt);
  if (req.model !== undefined && typeof req.model !== 'string')
    throw new InvalidRequestError('model', 'model must be a string');
  checkInteger('n', req.n, 1, 10);
  checkOneOf('response_format', req.response_format, ['url', 'b64_json']);
}

export class ImagesResource {
  constructor(
    private readonly transport: Transport,
    private readonly downloader: ImageDownloader,
  ) {}

  async generate(req: ImageGenerationRequest, opts?: RequestOptions): Promise<ImageGenerationResult> {
    validateImageRequest(req);
    return parseImageResult(
      await this.transport.json({
        method: 'POST',
        path: '/images/generations',
        json: req,
        retryable: false,
        options: opts,
        maxBytes: imagesAnswerCap(req.n ?? 1),
      }),
    );
  }

  /**
   * The bytes of one generated image and their type: `b64_json` decoded, or the `url` downloaded
   * through the client's network path with every check of ImageDownloader. Rejects with
   * ImageDownloadError, ResponseTooLargeError or TimeoutError; an AbortError when cancelled.
   */
  async download(image: GeneratedImage, opts: ImageDownloadOptions = {}): Promise<DownloadedImage> {
    if (image.b64_json) return imageFromBase64(image.b64_json, opts.maxBytes);
    if (image.url) return this.downloader.download(image.url, opts);
    throw new ImageDownloadError('missing', 'The gateway answered without image data (neither a url nor b64_json).');
  }
}
