import * as vscode from 'vscode';
import type { ImageGenerationRequest } from '../../core/types/media';
import { SetupRequiredError } from '../errors/setupError';
import { failureSummary, splitDownloads, type ImageFailure } from './imageData';
import type { ImageGallery, GalleryEntry } from './imageGallery';
import type { MediaDeps } from './mediaDeps';
import { pickModel, pickValue } from './mediaPicks';
import { PaidFailure, runMedia, type Outcome } from './mediaRun';

export const IMAGE_SIZES = ['1024x1024', '1024x1792', '1792x1024'] as const;
const QUALITIES = ['standard', 'hd'] as const;
const COUNTS = ['1', '2', '3', '4'] as const;
const IMAGE_TIMEOUT_MS = 180_000;
/** Each image link: the links are downloaded side by side, each within this time. */
const DOWNLOAD_TIMEOUT_MS = 60_000;

export interface GeneratedImages {
  readonly entries: readonly GalleryEntry[];
  readonly gallery: ImageGallery;
  /** The images of the answer that could not be kept (shown in the gallery too). */
  readonly failures: readonly ImageFailure[];
}

/** "Generate Image...": prompt, model, size, quality, count; results in the gallery. */
export async function generateImageCommand(deps: MediaDeps, gallery: ImageGallery): Promise<Outcome<GeneratedImages> | undefined> {
  // No key: said before the first question; once it is set, the command starts again.
  if (!deps.failures.requireSetup(vscode.l10n.t('Generate Image'), () => generateImageCommand(deps, gallery))) return undefined;
  const prompt = (await vscode.window.showInputBox({ title: vscode.l10n.t('Generate Image: prompt'), prompt: vscode.l10n.t('Describe the image'), ignoreFocusOut: true, validateInput: (v) => (v.trim() ? undefined : vscode.l10n.t('Describe the image.')) }))?.trim();
  if (!prompt) return undefined;
  const model = await pickModel(deps.catalog, 'image', vscode.l10n.t('Generate Image: model'));
  if (!model) return undefined;
  const size = await pickValue(IMAGE_SIZES, vscode.l10n.t('Generate Image: size'), (s) => (s === '1024x1024' ? vscode.l10n.t('square') : s === '1024x1792' ? vscode.l10n.t('portrait') : vscode.l10n.t('landscape')));
  if (!size) return undefined;
  const quality = await pickValue(QUALITIES, vscode.l10n.t('Generate Image: quality'), (q) => (q === 'hd' ? vscode.l10n.t('finer detail, costs more') : undefined));
  if (!quality) return undefined;
  const count = await pickValue(COUNTS, vscode.l10n.t('Generate Image: how many images'));
  if (!count) return undefined;
  return generateInto(deps, gallery, { model, prompt, size, quality, n: Number(count), response_format: 'url' });
}

/** Asks the gateway and puts the images in the gallery; Regenerate comes back here with the same request. */
export async function generateInto(deps: MediaDeps, gallery: ImageGallery, request: ImageGenerationRequest): Promise<Outcome<GeneratedImages>> {
  const n = request.n ?? 1;
  const busy = n > 1 ? vscode.l10n.t('Generating {0} images with {1}...', n, request.model) : vscode.l10n.t('Generating {0} image with {1}...', n, request.model);
  gallery.setBusy(busy);
  try {
    return await runMedia(deps.failures, vscode.l10n.t('Generating image'), async (signal, report) => {
      const client = deps.connection.setup.client;
      if (!client) throw new SetupRequiredError('baseUrl');
      report(vscode.l10n.t('with {0}...', request.model));
      const answer = await client.images.generate(request, { signal, timeoutMs: IMAGE_TIMEOUT_MS });
      deps.connection.reportModelUse();
      if (answer.data.length === 0) throw new Error(vscode.l10n.t('The gateway answered without an image.'));
      report(vscode.l10n.t('downloading...'));
      // Each image on its own: a bad link must not cost the images that did arrive (all are paid for).
      const settled = await Promise.allSettled(answer.data.map((image) => client.images.download(image, { signal, timeoutMs: DOWNLOAD_TIMEOUT_MS })));
      const { images, failures } = splitDownloads(answer.data, settled);
      const entries = images.length > 0 ? gallery.add(request, images) : [];
      // Cancelled while downloading: what arrived stays in the gallery; the command reports a cancel.
      signal.throwIfAborted();
      if (failures.length > 0) gallery.addFailures(request, failures);
      if (images.length === 0) throw new PaidFailure(failureSummary(0, failures));
      if (failures.length > 0) void vscode.window.showWarningMessage(vscode.l10n.t('Unified Inference: {0}', failureSummary(images.length, failures)), vscode.l10n.t('Show Gallery')).then((choice) => choice && gallery.show());
      return { entries, gallery, failures };
    }, () => generateInto(deps, gallery, request));
  } finally {
    gallery.setBusy(undefined);
  }
}
