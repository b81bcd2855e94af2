import * as vscode from 'vscode';
import { generateImageCommand, generateInto } from './generateImageCommand';
import { ImageGallery } from './imageGallery';
import type { MediaDeps } from './mediaDeps';
import { readSelectionAloud, saveSelectionAsSpeech } from './speechCommands';
import { transcribeAudioFile } from './transcribeCommand';

export const MEDIA_COMMANDS = {
  transcribe: 'unifiedInference.media.transcribeAudioFile',
  readAloud: 'unifiedInference.media.readSelectionAloud',
  saveSpeech: 'unifiedInference.media.saveSelectionAsSpeech',
  generateImage: 'unifiedInference.media.generateImage',
  showGallery: 'unifiedInference.media.showImageGallery',
} as const;

/** Transcription, read aloud and image generation: the commands (declared in package.json) and the gallery they share. */
export function registerMediaCommands(deps: MediaDeps): vscode.Disposable[] {
  const gallery: ImageGallery = new ImageGallery(deps.extensionUri, deps.log, (request) => generateInto(deps, gallery, request), (value) => deps.connection.redact(value), deps.workspaceFiles);
  return [
    gallery,
    vscode.commands.registerCommand(MEDIA_COMMANDS.transcribe, (resource?: unknown) => transcribeAudioFile(deps, resource)),
    vscode.commands.registerCommand(MEDIA_COMMANDS.readAloud, () => readSelectionAloud(deps)),
    vscode.commands.registerCommand(MEDIA_COMMANDS.saveSpeech, () => saveSelectionAsSpeech(deps)),
    vscode.commands.registerCommand(MEDIA_COMMANDS.generateImage, () => generateImageCommand(deps, gallery)),
    vscode.commands.registerCommand(MEDIA_COMMANDS.showGallery, () => {
      gallery.show();
      return gallery;
    }),
  ];
}
