import type * as vscode from 'vscode';
import { splitSpeechInput } from '../../core/media/speechInput';
import { readingTitle } from '../../core/media/speechOptions';
import { modelFor, noModelText } from '../models/catalogModels';
import { lastAnswer } from '../../core/participant/history';
import { inlineCode } from '../../shared/markdownText';
import { reportCommandError, requireClient } from './participantErrors';
import { result, type CommandContext } from './participantContext';
import { speechText } from '../../core/participant/speechText';
import { errorMessage } from '../../shared/errorMessage';

export const SHOW_AUDIO_PLAYER_COMMAND = 'unifiedInference.chat.showAudioPlayer';
const VOICE = 'alloy';
const SPEECH_TIMEOUT_MS = 120_000;

/**
 * /speak: the last answer of this conversation, read aloud in the audio panel. Parts are fetched
 * in order and handed to the player as each arrives, so playback starts after the first.
 */
export async function speakLastAnswer(ctx: CommandContext): Promise<vscode.ChatResult> {
  const answer = lastAnswer(ctx.turns);
  const text = answer ? speechText(answer) : '';
  if (!text) {
    ctx.stream.markdown(
      'There is no previous answer of `@unified` in this conversation to read aloud. Ask something first, then `/speak`.',
    );
    return result('speak', 'usage');
  }
  const client = requireClient(ctx);
  if (!client) return result('speak', 'setup');
  const model = await modelFor(ctx.deps.catalog, 'speech');
  if (!model) {
    ctx.stream.markdown(noModelText(ctx.deps.catalog, 'speech'));
    ctx.stream.button({ command: 'unifiedInference.pickDefaultSpeechModel', title: 'Pick a Default Speech Model' });
    return result('speak', 'error');
  }
  const parts = splitSpeechInput(text);
  const { player } = ctx;
  const { connection } = ctx.deps;
  const playlist = player.start(readingTitle(text, 'The last answer'), parts.length);
  try {
    for (const [index, input] of parts.entries()) {
      ctx.stream.progress(
        parts.length > 1 ? `Generating speech, part ${index + 1} of ${parts.length}...` : 'Generating speech...',
      );
      const audio = await client.audio.speech(
        { model: model.id, input, voice: VOICE, response_format: 'mp3' },
        { signal: ctx.signal, timeoutMs: SPEECH_TIMEOUT_MS },
      );
      connection.reportModelUse();
      player.addPart(playlist, index, audio);
    }
    ctx.stream.markdown(
      `Reading the last answer aloud with ${inlineCode(model.id)}${parts.length > 1 ? ` in ${parts.length} parts` : ''} (${Array.from(text).length} characters), in the **Unified Inference Audio** panel.`,
    );
    ctx.stream.button({ command: SHOW_AUDIO_PLAYER_COMMAND, title: 'Show Player' });
    return result('speak', 'done');
  } catch (error) {
    player.fail(playlist, ctx.token.isCancellationRequested ? 'cancelled' : errorMessage(error));
    return reportCommandError(ctx, 'speak', error);
  }
}
