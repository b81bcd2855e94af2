import * as vscode from 'vscode';
import type { AudioPlayer } from '../media/audioPlayer';
import { SAVE_IMAGE_COMMAND, saveImageToWorkspace } from './imageFiles';
import { PARTICIPANT_ID, type UnifiedParticipantDeps } from './participantContext';
import { SHOW_AUDIO_PLAYER_COMMAND } from './speakCommand';
import { createUnifiedHandler } from './unifiedHandler';

export type { UnifiedParticipantDeps } from './participantContext';
export { createUnifiedHandler, type UnifiedHandler } from './unifiedHandler';

/** Registers `@unified` (declared in package.json's chatParticipants) and the commands its buttons run. */
export function registerUnifiedParticipant(deps: UnifiedParticipantDeps): {
  disposables: vscode.Disposable[];
  handler: vscode.ChatRequestHandler;
  player: AudioPlayer;
} {
  const unified = createUnifiedHandler(deps);
  const participant = vscode.chat.createChatParticipant(PARTICIPANT_ID, unified.handler);
  participant.iconPath = vscode.Uri.joinPath(deps.extensionUri, 'media', 'unified-inference.svg');
  participant.followupProvider = unified.followupProvider;
  return {
    handler: unified.handler,
    player: unified.player,
    disposables: [
      participant,
      ...unified.disposables,
      vscode.commands.registerCommand(SAVE_IMAGE_COMMAND, (uri: unknown) => saveImageToWorkspace(uri)),
      vscode.commands.registerCommand(SHOW_AUDIO_PLAYER_COMMAND, () => unified.player.show()),
    ],
  };
}
