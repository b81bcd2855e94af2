// #transcribe: a workspace audio file to text with the default transcription model. The path is
// the model's (untrusted): it goes through the workspace-files gate (inside the folders by its real
// path, not excluded or .gitignored; a sensitive file is refused), and its size is checked by stat
// before a byte is read. Charged per minute of audio: asks first, naming the file and its size.
import * as vscode from 'vscode';
import { audioUploadType, isTranscribableFile, TRANSCRIPTION_FILE_EXTENSIONS } from '../../core/media/audioFiles';
import { formatByteSize } from '../../core/limits';
import { transcriptionUploadVerdict } from '../../core/media/uploadSize';
import type { Transcription } from '../../core/types/media';
import type { WorkspaceFile } from '../../core/workspaceFiles/workspaceFile';
import type { WorkspaceFiles } from '../../core/workspaceFiles/workspaceFiles';
import { modelFor } from '../models/catalogModels';
import type { LmToolDeps } from './lmToolDeps';
import { LM_TOOLS } from '../../core/lmTools/toolNames';
import { balanceNote, requireClient, requireTrustedWorkspace, textResult, toolFailure } from './toolSupport';
import { optionalText, requiredText, ToolInputError } from '../../core/lmTools/toolInput';
import { abortOnCancel } from '../lifecycle';

const TRANSCRIBE_TIMEOUT_MS = 10 * 60_000;

export interface TranscribeInput {
  readonly path: string;
  readonly language?: string;
  readonly prompt?: string;
}

/** The file the model named, admitted by the gate, or an input error the model can correct. */
async function audioFile(files: WorkspaceFiles, path: string): Promise<WorkspaceFile> {
  const resolved = await files.resolve(path);
  if (!resolved.ok) throw new ToolInputError(resolved.message);
  if (resolved.file.sensitive.length)
    throw new ToolInputError(
      `${resolved.file.display} is a sensitive file (unifiedInference.sensitiveFiles): it is not uploaded.`,
    );
  if (!isTranscribableFile(resolved.file.path))
    throw new ToolInputError(
      `${resolved.file.display} is not an audio file the gateway transcribes. Use one of: ${TRANSCRIPTION_FILE_EXTENSIONS.map((e) => `.${e}`).join(', ')}.`,
    );
  return resolved.file;
}

export function transcribeTool(deps: LmToolDeps): vscode.LanguageModelTool<TranscribeInput> {
  return {
    async prepareInvocation(options) {
      const path = typeof options.input?.path === 'string' ? options.input.path.trim().slice(0, 300) : '';
      let size = '';
      let warning = '';
      try {
        const files = await deps.workspaceFiles.open();
        const file = await audioFile(files, path);
        const bytes = (await files.stat(file)).size;
        size = ` (${formatByteSize(bytes)})`;
        const verdict = transcriptionUploadVerdict(file.display, bytes);
        if (verdict.kind !== 'ok') warning = ` ${verdict.message}`;
      } catch {
        // invoke says what is wrong with the path; the confirmation only describes the work.
      }
      const model = await modelFor(deps.catalog, 'transcription').catch(() => undefined);
      return {
        invocationMessage: vscode.l10n.t('Transcribing {0}', path),
        confirmationMessages: {
          title: vscode.l10n.t('Transcribe an audio file?'),
          message: vscode.l10n.t(
            'Upload {0}{1} to the gateway and transcribe it with {2}. Charged per minute of audio; a long recording can take minutes.{3}{4}',
            path,
            size,
            model?.id ?? vscode.l10n.t('the default transcription model'),
            warning,
            balanceNote(deps.credits),
          ),
        },
      };
    },
    async invoke(options, token) {
      const controller = new AbortController();
      const cancel = abortOnCancel(controller, token);
      try {
        requireTrustedWorkspace('transcribing its files');
        const path = requiredText(options.input, 'path', 1_000);
        const language = optionalText(options.input, 'language', 10);
        if (language !== undefined && !/^[a-z]{2}$/i.test(language))
          throw new ToolInputError('"language" must be an ISO-639-1 code such as "en" or "de".');
        const prompt = optionalText(options.input, 'prompt', 2_000);
        const files = await deps.workspaceFiles.open();
        const file = await audioFile(files, path);
        const verdict = transcriptionUploadVerdict(file.display, (await files.stat(file)).size);
        if (verdict.kind === 'refuse') throw new Error(verdict.message);
        const client = requireClient(deps.connection);
        const model = await modelFor(deps.catalog, 'transcription');
        if (!model)
          throw new Error(
            'No transcription model is available: the gateway lists none and unifiedInference.defaultModels.transcription is not set.',
          );
        const data = await vscode.workspace.fs.readFile(vscode.Uri.file(file.real));
        // It may have grown since the stat: the same verdict on what was read.
        const grown = transcriptionUploadVerdict(file.display, data.byteLength);
        if (grown.kind === 'refuse') throw new Error(grown.message);
        const filename = file.path.split('/').pop() ?? 'audio';
        const answer = await client.audio.transcribe(
          {
            model: model.id,
            file: { data, filename, contentType: audioUploadType(file.path) },
            response_format: 'json',
            ...(language ? { language: language.toLowerCase() } : {}),
            ...(prompt ? { prompt } : {}),
          },
          { signal: controller.signal, timeoutMs: TRANSCRIBE_TIMEOUT_MS },
        );
        deps.connection.reportModelUse();
        return textResult(deps.connection.redact(transcriptText(file.display, model.id, answer)));
      } catch (error) {
        throw await toolFailure(deps, LM_TOOLS.transcribe.reference, error, token);
      } finally {
        cancel.dispose();
      }
    },
  };
}

function transcriptText(display: string, model: string, answer: Transcription | string): string {
  if (typeof answer === 'string') return `Transcript of ${display} (${model}):\n\n${answer.trim()}`;
  const facts = [
    answer.language ? `language ${answer.language}` : undefined,
    typeof answer.duration === 'number' ? `${answer.duration.toFixed(1)} s of audio` : undefined,
  ]
    .filter(Boolean)
    .join(', ');
  return `Transcript of ${display} (${model}${facts ? `; ${facts}` : ''}):\n\n${answer.text.trim()}`;
}
