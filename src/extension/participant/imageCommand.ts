import * as vscode from 'vscode';
import { modelFor, noModelText } from '../models/catalogModels';
import { SAVE_IMAGE_COMMAND, storeImage } from './imageFiles';
import { escapeMarkdown, inlineCode } from '../../shared/markdownText';
import { reportCommandError, requireClient } from './participantErrors';
import { result, type CommandContext } from './participantContext';

const IMAGE_TIMEOUT_MS = 120_000;
/** A gateway that answers with a link despite b64_json: the link is downloaded within this time. */
const DOWNLOAD_TIMEOUT_MS = 60_000;

/** /image <prompt>: one image from the default image model, saved to global storage and shown. */
export async function generateImage(ctx: CommandContext): Promise<vscode.ChatResult> {
  const prompt = ctx.prompt.trim();
  if (!prompt) {
    ctx.stream.markdown(vscode.l10n.t('Describe the image: `@unified /image a lighthouse at dusk, watercolour`'));
    return result('image', 'usage');
  }
  const client = requireClient(ctx);
  if (!client) return result('image', 'setup');
  const model = await modelFor(ctx.deps.catalog, 'image');
  if (!model) {
    ctx.stream.markdown(noModelText(ctx.deps.catalog, 'image'));
    ctx.stream.button({
      command: 'unifiedInference.pickDefaultImageModel',
      title: vscode.l10n.t('Pick a Default Image Model'),
    });
    return result('image', 'error');
  }
  try {
    ctx.stream.progress(vscode.l10n.t('Generating with {0}...', model.id));
    const answer = await client.images.generate(
      { model: model.id, prompt, response_format: 'b64_json' },
      { signal: ctx.signal, timeoutMs: IMAGE_TIMEOUT_MS },
    );
    ctx.deps.connection.reportModelUse();
    const image = answer.data[0];
    if (!image) {
      ctx.stream.markdown(vscode.l10n.t('The gateway answered without an image.'));
      return result('image', 'error');
    }
    // Typed from its bytes (a gateway may send JPEG or WebP, and must not slip in SVG or HTML).
    const uri = await storeImage(
      ctx.deps.storageUri,
      await client.images.download(image, { signal: ctx.signal, timeoutMs: DOWNLOAD_TIMEOUT_MS }),
    );
    const caption = image.revised_prompt?.trim() || prompt;
    ctx.stream.markdown(
      new vscode.MarkdownString(`![${escapeMarkdown(caption).slice(0, 300)}](${uri.toString(true)})\n\n`),
    );
    ctx.stream.reference(uri);
    ctx.stream.markdown(
      `${image.revised_prompt ? vscode.l10n.t('{0}, revised prompt: *{1}*', inlineCode(model.id), escapeMarkdown(image.revised_prompt)) : inlineCode(model.id)}\n\n`,
    );
    ctx.stream.button({
      command: 'vscode.open',
      title: vscode.l10n.t('Open Image'),
      arguments: [uri, { preview: true, viewColumn: vscode.ViewColumn.Beside }],
    });
    ctx.stream.button({ command: SAVE_IMAGE_COMMAND, title: vscode.l10n.t('Save to Workspace...'), arguments: [uri] });
    return result('image', 'done');
  } catch (error) {
    return reportCommandError(ctx, 'image', error);
  }
}
