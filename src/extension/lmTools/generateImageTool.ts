// #generateImage: generates images with the default image model and saves them into the
// workspace's images folder (unifiedInference.images.folder, as the gallery's "Save to Workspace"
// does), returning their workspace-relative paths. Each image that arrived is kept even when
// another of the same answer did not (all are paid for). Charged per image: asks first.
import { promises as fs } from 'node:fs';
import * as vscode from 'vscode';
import type { ImageGenerationRequest } from '../../core/types/media';
import { readSettings } from '../config';
import { modelFor } from '../models/catalogModels';
import { IMAGE_SIZES } from '../media/generateImageCommand';
import { imageFileName, imageFolderSegments, splitDownloads } from '../../core/media/imageData';
import type { LmToolDeps } from './lmToolDeps';
import { LM_TOOLS } from '../../core/lmTools/toolNames';
import { balanceNote, requireClient, requireTrustedWorkspace, textResult, toolFailure } from './toolSupport';
import { optionalChoice, optionalInteger, requiredText } from '../../core/lmTools/toolInput';
import { abortOnCancel } from '../lifecycle';

const QUALITIES = ['standard', 'hd'] as const;
const MAX_IMAGES = 4;
const MAX_PROMPT = 4_000;
const IMAGE_TIMEOUT_MS = 180_000;
const DOWNLOAD_TIMEOUT_MS = 60_000;
/** Names tried for one image before giving up (`name`, `name-2` ... ). */
const MAX_NAME_ATTEMPTS = 100;

export interface GenerateImageInput {
  readonly prompt: string;
  readonly size?: (typeof IMAGE_SIZES)[number];
  readonly quality?: (typeof QUALITIES)[number];
  readonly count?: number;
}

export function generateImageTool(deps: LmToolDeps): vscode.LanguageModelTool<GenerateImageInput> {
  return {
    async prepareInvocation(options) {
      const input = options.input ?? ({} as Partial<GenerateImageInput>);
      const count =
        typeof input.count === 'number' && input.count >= 1 ? Math.min(MAX_IMAGES, Math.floor(input.count)) : 1;
      const quality = input.quality === 'hd' ? 'hd' : 'standard';
      const size = typeof input.size === 'string' ? input.size : '1024x1024';
      const model = await modelFor(deps.catalog, 'image').catch(() => undefined);
      const folder = readSettings().images.folder || vscode.l10n.t('(the workspace root)');
      const prompt = typeof input.prompt === 'string' ? input.prompt.trim().slice(0, 300) : '';
      const modelName = model?.id ?? vscode.l10n.t('(the default image model)');
      return {
        invocationMessage:
          count === 1 ? vscode.l10n.t('Generating {0} image', count) : vscode.l10n.t('Generating {0} images', count),
        confirmationMessages: {
          title: count === 1 ? vscode.l10n.t('Generate an image?') : vscode.l10n.t('Generate {0} images?', count),
          message:
            quality === 'hd'
              ? vscode.l10n.t(
                  'Prompt: "{0}"\n\nModel {1}, {2}, {3} quality. Charged per image (hd costs more); takes up to a minute. Saved into {4} in the workspace.{5}',
                  prompt,
                  modelName,
                  size,
                  quality,
                  folder,
                  balanceNote(deps.credits),
                )
              : vscode.l10n.t(
                  'Prompt: "{0}"\n\nModel {1}, {2}, {3} quality. Charged per image; takes up to a minute. Saved into {4} in the workspace.{5}',
                  prompt,
                  modelName,
                  size,
                  quality,
                  folder,
                  balanceNote(deps.credits),
                ),
        },
      };
    },
    async invoke(options, token) {
      const controller = new AbortController();
      const cancel = abortOnCancel(controller, token);
      try {
        requireTrustedWorkspace('saving generated images into it');
        const prompt = requiredText(options.input, 'prompt', MAX_PROMPT);
        const size = optionalChoice(options.input, 'size', IMAGE_SIZES) ?? '1024x1024';
        const quality = optionalChoice(options.input, 'quality', QUALITIES) ?? 'standard';
        const n = optionalInteger(options.input, 'count', 1, MAX_IMAGES) ?? 1;
        const root = vscode.workspace.workspaceFolders?.find((folder) => folder.uri.scheme === 'file')?.uri;
        if (!root) throw new Error('No folder is open: generated images are saved into the workspace.');
        const segments = imageFolderSegments(readSettings().images.folder);
        if (!segments)
          throw new Error(
            'The unifiedInference.images.folder setting is not a relative folder inside the workspace; ask the user to correct it.',
          );
        const client = requireClient(deps.connection);
        const model = await modelFor(deps.catalog, 'image');
        if (!model)
          throw new Error(
            'No image model is available: the gateway lists none and unifiedInference.defaultModels.image is not set.',
          );
        const request: ImageGenerationRequest = {
          model: model.id,
          prompt,
          n,
          size,
          quality,
          response_format: 'b64_json',
        };
        const answer = await client.images.generate(request, {
          signal: controller.signal,
          timeoutMs: IMAGE_TIMEOUT_MS,
        });
        deps.connection.reportModelUse();
        if (answer.data.length === 0) throw new Error('The gateway answered without an image.');
        // Paid for once answered: a link's download is bounded by time only, not by the cancel.
        const settled = await Promise.allSettled(
          answer.data.map((image) => client.images.download(image, { timeoutMs: DOWNLOAD_TIMEOUT_MS })),
        );
        const { images, failures } = splitDownloads(answer.data, settled);
        // Paid for: what arrived is saved even when the request is being cancelled.
        const files = await deps.workspaceFiles.open();
        const folder = vscode.Uri.joinPath(root, ...segments);
        const when = new Date();
        const saved: string[] = [];
        for (const [index, image] of images.entries()) {
          const named = vscode.Uri.joinPath(folder, imageFileName(prompt, when, index, image.type.extension));
          // The workspace-files gate: a folder setting or link that leads out of the workspace is refused.
          const placement = await files.place(named.fsPath);
          if (!placement.ok) throw new Error(`The images folder cannot be written: ${placement.message}`);
          await vscode.workspace.fs.createDirectory(folder);
          const target = await writeNew(named, image.bytes);
          saved.push(
            `${vscode.workspace.asRelativePath(target, false)}${image.revisedPrompt ? ` (revised prompt: ${image.revisedPrompt})` : ''}`,
          );
        }
        if (token.isCancellationRequested) throw new vscode.CancellationError();
        if (saved.length === 0)
          throw new Error(
            `None of the images could be kept: ${failures.map((f) => `${f.position}: ${f.message}`).join('; ')}`,
          );
        const lines = [
          `Generated ${saved.length} image${saved.length === 1 ? '' : 's'} with ${model.id} (${size}, ${quality}) and saved ${saved.length === 1 ? 'it' : 'them'} in the workspace:`,
          ...saved.map((path) => `- ${path}`),
        ];
        if (failures.length)
          lines.push(
            `${failures.length} image${failures.length === 1 ? '' : 's'} of the answer could not be kept: ${failures.map((f) => `${f.position}: ${f.message}`).join('; ')}`,
          );
        return textResult(deps.connection.redact(lines.join('\n')));
      } catch (error) {
        throw await toolFailure(deps, LM_TOOLS.generateImage.reference, error, token);
      } finally {
        cancel.dispose();
      }
    },
  };
}

/**
 * Writes `bytes` to `uri`, or beside it as `name-2.png`, `name-3.png`... when the name is taken:
 * names have one-second resolution, and two calls in the same second must not overwrite a paid
 * image. Exclusive creation, so two writers never pick the same name.
 */
async function writeNew(uri: vscode.Uri, bytes: Uint8Array): Promise<vscode.Uri> {
  const dot = uri.path.lastIndexOf('.');
  for (let attempt = 1; attempt <= MAX_NAME_ATTEMPTS; attempt++) {
    const candidate =
      attempt === 1 ? uri : uri.with({ path: `${uri.path.slice(0, dot)}-${attempt}${uri.path.slice(dot)}` });
    try {
      await fs.writeFile(candidate.fsPath, bytes, { flag: 'wx' });
      return candidate;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  throw new Error(
    `${vscode.workspace.asRelativePath(uri, false)} and ${MAX_NAME_ATTEMPTS - 1} variants of its name already exist.`,
  );
}
