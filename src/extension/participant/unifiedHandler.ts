import * as vscode from 'vscode';
import { AudioPlayer } from '../media/audioPlayer';
import { listModels, showQuota } from './catalogCommands';
import { answerPrompt } from './answerCommand';
import { chatTurns } from './chatTurns';
import { followupsFor } from './followups';
import { generateImage } from './imageCommand';
import { reportCommandError } from './participantErrors';
import {
  PARTICIPANT_ID,
  type CommandContext,
  type UnifiedCommand,
  type UnifiedParticipantDeps,
} from './participantContext';
import { startResearch } from './researchCommand';
import { speakLastAnswer } from './speakCommand';
import { abortOnCancel } from '../lifecycle';

export interface UnifiedHandler {
  readonly handler: vscode.ChatRequestHandler;
  readonly followupProvider: vscode.ChatFollowupProvider;
  /** The audio panel /speak plays into. */
  readonly player: AudioPlayer;
  readonly disposables: vscode.Disposable[];
}

const COMMANDS: Readonly<Record<UnifiedCommand, (ctx: CommandContext) => Promise<vscode.ChatResult>>> = {
  research: startResearch,
  image: generateImage,
  speak: speakLastAnswer,
  models: listModels,
  quota: showQuota,
  '': answerPrompt,
};

function commandOf(request: vscode.ChatRequest): UnifiedCommand | undefined {
  const command = request.command ?? '';
  return Object.hasOwn(COMMANDS, command) ? (command as UnifiedCommand) : undefined;
}

/**
 * The @unified request handler, without registering the participant (VS Code allows one
 * registration per id: tests build their own handler with this).
 */
export function createUnifiedHandler(deps: UnifiedParticipantDeps): UnifiedHandler {
  const player = new AudioPlayer(deps.extensionUri, deps.log, (value) => deps.connection.redact(value));
  const handler: vscode.ChatRequestHandler = async (request, context, stream, token) => {
    const command = commandOf(request);
    if (command === undefined) {
      stream.markdown(
        vscode.l10n.t(
          '`@unified` has no `/{0}` command. Try `/research`, `/image`, `/speak`, `/models` or `/quota`.',
          request.command ?? '',
        ),
      );
      return { metadata: { command: '', outcome: 'usage' } };
    }
    // Cancelling the chat request aborts the gateway request at once (the socket closes).
    const controller = new AbortController();
    const cancel = abortOnCancel(controller, token);
    const ctx: CommandContext = {
      deps,
      player,
      prompt: request.prompt,
      turns: chatTurns(context.history),
      stream,
      token,
      signal: controller.signal,
    };
    try {
      return await COMMANDS[command](ctx);
    } catch (error) {
      return reportCommandError(ctx, command, error);
    } finally {
      cancel.dispose();
    }
  };
  const followupProvider: vscode.ChatFollowupProvider = {
    provideFollowups: (result) =>
      followupsFor(result.metadata).map((followup) => ({ ...followup, participant: PARTICIPANT_ID })),
  };
  return { handler, followupProvider, player, disposables: [player] };
}
