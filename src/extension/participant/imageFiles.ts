import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { imageTypeOfExtension } from '../../core/images/imageType';
import type { DownloadedImage } from '../../core/images/imageDownloader';

export const SAVE_IMAGE_COMMAND = 'unifiedInference.chat.saveImage';
/** Generated images kept in global storage; older ones are removed (the user saves what they keep). */
const KEEP_IMAGES = 20;

/** Writes a generated image under `<storage>/chat-images/`, named with the extension of its type, and returns its URI. */
export async function storeImage(storageUri: vscode.Uri, { bytes, type }: DownloadedImage): Promise<vscode.Uri> {
  const folder = vscode.Uri.joinPath(storageUri, 'chat-images');
  await vscode.workspace.fs.createDirectory(folder);
  await pruneImages(folder);
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '');
  const uri = vscode.Uri.joinPath(folder, `image-${stamp}-${randomBytes(3).toString('hex')}.${type.extension}`);
  await vscode.workspace.fs.writeFile(uri, bytes);
  return uri;
}

async function pruneImages(folder: vscode.Uri): Promise<void> {
  const entries = (await vscode.workspace.fs.readDirectory(folder))
    .filter(([name, type]) => type === vscode.FileType.File && name.startsWith('image-'))
    .map(([name]) => name)
    .sort();
  for (const name of entries.slice(0, Math.max(0, entries.length - KEEP_IMAGES + 1))) {
    await vscode.workspace.fs.delete(vscode.Uri.joinPath(folder, name)).then(undefined, () => undefined);
  }
}

/** "Save to Workspace...": copies a generated image where the user picks (through workspace.fs, so remote folders work). */
export async function saveImageToWorkspace(source: unknown): Promise<vscode.Uri | undefined> {
  const from =
    source instanceof vscode.Uri ? source : typeof source === 'string' ? vscode.Uri.parse(source) : undefined;
  if (!from) return undefined;
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const name = from.path.split('/').pop() ?? 'image.png';
  const type = imageTypeOfExtension(name);
  const target = await vscode.window.showSaveDialog({
    title: vscode.l10n.t('Save Image'),
    saveLabel: vscode.l10n.t('Save Image'),
    filters: type
      ? { [vscode.l10n.t('{0} image', type.label)]: [type.extension] }
      : { [vscode.l10n.t('Images')]: ['png', 'jpg', 'webp', 'gif'] },
    ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, name) } : {}),
  });
  if (!target) return undefined;
  await vscode.workspace.fs.writeFile(target, await vscode.workspace.fs.readFile(from));
  void vscode.window.setStatusBarMessage(
    vscode.l10n.t('$(check) Image saved to {0}', vscode.workspace.asRelativePath(target)),
    4000,
  );
  return target;
}
