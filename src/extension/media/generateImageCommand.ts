import * as vscode from 'vscode';
import type { ImageGenerationRequest } from '../../core/index';
import { imageBytes } from './imageData';
import type { ImageGallery, GalleryEntry } from './imageGallery';
import type { MediaDeps } from './mediaDeps';
import { pickModel, pickValue } from './mediaPicks';
import { runMedia, type Outcome } from './mediaRun';

export const IMAGE_SIZES = ['1024x1024', '1024x1792', '1792x1024'] as const;
const QUALITIES = ['standard', 'hd'] as const;
const COUNTS = ['1', '2', '3', '4'] as const;
const IMAGE_TIMEOUT_MS = 180_000;

export interface GeneratedImages {
  readonly entries: readonly GalleryEntry[];
  readonly gallery: ImageGallery;
}

/** "Generate Image...": prompt, model, size, quality, count; results in the gallery. */
export async function generateImageCommand(deps: MediaDeps, gallery: ImageGallery): Promise<Outcome<GeneratedImages> | undefined> {
  if (!deps.connection.setup.client) {
    void vscode.window.showErrorMessage('Set the gateway address first (Unified Inference: Set Gateway Address).');
    return undefined;
  }
  const prompt = (await vscode.window.showInputBox({ title: 'Generate Image: prompt', prompt: 'Describe the image', ignoreFocusOut: true, validateInput: (v) => (v.trim() ? undefined : 'Describe the image.') }))?.trim();
  if (!prompt) return undefined;
  const model = await pickModel(deps.catalog, 'image', 'Generate Image: model');
  if (!model) return undefined;
  const size = await pickValue(IMAGE_SIZES, 'Generate Image: size', (s) => (s === '1024x1024' ? 'square' : s === '1024x1792' ? 'portrait' : 'landscape'));
  if (!size) return undefined;
  const quality = await pickValue(QUALITIES, 'Generate Image: quality', (q) => (q === 'hd' ? 'finer detail, costs more' : undefined));
  if (!quality) return undefined;
  const count = await pickValue(COUNTS, 'Generate Image: how many images');
  if (!count) return undefined;
  return generateInto(deps, gallery, { model, prompt, size, quality, n: Number(count), response_format: 'url' });
}

/** Asks the gateway and puts the images in the gallery; Regenerate comes back here with the same request. */
export async function generateInto(deps: MediaDeps, gallery: ImageGallery, request: ImageGenerationRequest): Promise<Outcome<GeneratedImages>> {
  const busy = `Generating ${request.n ?? 1} image${(request.n ?? 1) > 1 ? 's' : ''} with ${request.model}...`;
  gallery.setBusy(busy);
  try {
    return await runMedia(deps.connection, 'Generating image', async (signal, report) => {
      const client = deps.connection.setup.client;
      if (!client) throw new Error('The gateway address is not set.');
      report(`with ${request.model}...`);
      const answer = await client.images.generate(request, { signal, timeoutMs: IMAGE_TIMEOUT_MS });
      deps.connection.reportModelUse();
      if (answer.data.length === 0) throw new Error('The gateway answered without an image.');
      report('downloading...');
      const images = [];
      for (const image of answer.data) images.push({ bytes: await imageBytes(image, signal), revisedPrompt: image.revised_prompt?.trim() ?? '' });
      return { entries: gallery.add(request, images), gallery };
    });
  } finally {
    gallery.setBusy(undefined);
  }
}
