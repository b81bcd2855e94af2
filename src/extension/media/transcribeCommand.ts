import * as vscode from 'vscode';
import { audioUploadType, isTranscribableFile, TRANSCRIPTION_FILE_EXTENSIONS, TRANSCRIPTION_FORMATS } from '../../core/media/audioFiles';
import { transcriptionUploadVerdict } from '../../core/media/uploadSize';
import type { TranscriptionFormat } from '../../core/types/media';
import { SetupRequiredError } from '../../core/failures/setupError';
import type { MediaDeps } from './mediaDeps';
import { TRANSCRIPTION_LANGUAGES } from '../../core/media/languageCodes';
import { pickModel, pickValue } from './mediaPicks';
import { runMedia, type Outcome } from './mediaRun';
import { subtitlePath, transcriptDocument } from '../../core/media/transcriptText';
import { errorMessage } from '../../shared/errorMessage';

const TRANSCRIBE_TIMEOUT_MS = 10 * 60_000;
/** What each output format gives, in the display language. */
function formatNote(format: TranscriptionFormat): string {
  switch (format) {
    case 'text': return vscode.l10n.t('plain transcript');
    case 'srt': return vscode.l10n.t('SubRip subtitles');
    case 'vtt': return vscode.l10n.t('WebVTT subtitles');
    case 'verbose_json': return vscode.l10n.t('segments and word timestamps, as tables');
    case 'json': return vscode.l10n.t('the JSON answer');
  }
}

export interface TranscribeResult {
  readonly document: vscode.TextDocument;
  readonly format: TranscriptionFormat;
  /** The subtitle file written next to the audio, if the user asked for it. */
  readonly saved?: vscode.Uri;
}

/** "Transcribe Audio File...": from the Explorer (the file clicked) or the palette (a file picked). */
export async function transcribeAudioFile(deps: MediaDeps, resource?: unknown): Promise<Outcome<TranscribeResult> | undefined> {
  // No key: said before the file dialog; once it is set, the command starts again (same file).
  if (!deps.failures.requireSetup(vscode.l10n.t('Transcribe Audio File'), () => transcribeAudioFile(deps, resource))) return undefined;
  const file = resource instanceof vscode.Uri ? resource : await pickAudioFile();
  if (!file) return undefined;
  if (!isTranscribableFile(file.path)) {
    const message = vscode.l10n.t('{0} is not an audio file the gateway transcribes. Use one of: {1}.', basename(file), TRANSCRIPTION_FILE_EXTENSIONS.map((e) => `.${e}`).join(', '));
    void vscode.window.showErrorMessage(message);
    return { kind: 'failed', message };
  }
  const sizeProblem = await checkUploadSize(file);
  if (sizeProblem) return sizeProblem;
  const model = await pickModel(deps.catalog, 'transcription', vscode.l10n.t('Transcribe: model'));
  if (!model) return undefined;
  const language = await pickLanguage();
  if (language === undefined) return undefined;
  const format = await pickValue(TRANSCRIPTION_FORMATS, vscode.l10n.t('Transcribe: output format'), formatNote);
  if (!format) return undefined;
  const prompt = await vscode.window.showInputBox({ title: vscode.l10n.t('Transcribe: prompt (optional)'), prompt: vscode.l10n.t('Words, names or style the transcript should follow; in the language of the audio. Leave empty for none.'), ignoreFocusOut: true });
  if (prompt === undefined) return undefined;
  return transcribeWith(deps, file, { model, language, format, prompt: prompt.trim() });
}

interface TranscribeChoice { readonly model: string; readonly language: string; readonly format: TranscriptionFormat; readonly prompt: string }

/** The upload and its result, with the choices made: Retry comes back here without asking again. */
async function transcribeWith(deps: MediaDeps, file: vscode.Uri, { model, language, format, prompt }: TranscribeChoice): Promise<Outcome<TranscribeResult>> {
  const outcome = await runMedia(deps.failures, vscode.l10n.t('Transcribing {0}', basename(file)), async (signal, report) => {
    const client = deps.connection.setup.client;
    if (!client) throw new SetupRequiredError('baseUrl');
    report(vscode.l10n.t('reading the file...'));
    const data = await vscode.workspace.fs.readFile(file);
    // It may have grown since it was checked: the same verdict on what was read.
    const grown = transcriptionUploadVerdict(basename(file), data.byteLength);
    if (grown.kind === 'refuse') throw new Error(grown.message);
    report(vscode.l10n.t('uploading {0} to {1}...', formatBytes(data.byteLength), model));
    const answer = await client.audio.transcribe(
      { model, file: { data, filename: basename(file), contentType: audioUploadType(file.path) }, response_format: format, ...(language ? { language } : {}), ...(prompt ? { prompt } : {}) },
      { signal, timeoutMs: TRANSCRIBE_TIMEOUT_MS },
    );
    deps.connection.reportModelUse();
    return answer;
  }, () => transcribeWith(deps, file, { model, language, format, prompt }));
  if (outcome.kind !== 'done') return outcome;

  const shown = transcriptDocument(outcome.value, format);
  const known = await vscode.languages.getLanguages();
  const document = await vscode.workspace.openTextDocument({ content: shown.content, language: known.includes(shown.language) ? shown.language : 'plaintext' });
  await vscode.window.showTextDocument(document, { preview: false });
  await wrapLines(document);
  const saved = format === 'srt' || format === 'vtt' ? await offerSubtitleSave(file, format, shown.content) : undefined;
  return { kind: 'done', value: { document, format, ...(saved ? { saved } : {}) } };
}

/**
 * A transcript is long lines of prose (a whole paragraph per line in text and JSON): wrapped in its
 * editor, as the user would otherwise do by hand. Only this editor: the setting stays as it is.
 */
async function wrapLines(document: vscode.TextDocument): Promise<void> {
  if (vscode.window.activeTextEditor?.document !== document) return;
  if (vscode.workspace.getConfiguration('editor', document).get<string>('wordWrap') !== 'off') return;
  await vscode.commands.executeCommand('editor.action.toggleWordWrap');
}

/**
 * The file's size from a stat, before anything is read: too large is refused, large asks first.
 * Undefined when the upload may go ahead.
 */
async function checkUploadSize(file: vscode.Uri): Promise<Outcome<TranscribeResult> | undefined> {
  let size: number;
  try {
    size = (await vscode.workspace.fs.stat(file)).size;
  } catch (error) {
    const message = vscode.l10n.t('{0} could not be read ({1}).', basename(file), errorMessage(error));
    void vscode.window.showErrorMessage(message);
    return { kind: 'failed', message };
  }
  const verdict = transcriptionUploadVerdict(basename(file), size);
  if (verdict.kind === 'refuse') {
    void vscode.window.showErrorMessage(verdict.message);
    return { kind: 'failed', message: verdict.message };
  }
  if (verdict.kind === 'confirm') {
    const upload = vscode.l10n.t('Upload Anyway');
    if ((await vscode.window.showWarningMessage(verdict.message, { modal: true }, upload)) !== upload) return { kind: 'cancelled' };
  }
  return undefined;
}

async function pickAudioFile(): Promise<vscode.Uri | undefined> {
  const picked = await vscode.window.showOpenDialog({
    title: vscode.l10n.t('Transcribe Audio File'),
    openLabel: vscode.l10n.t('Transcribe'),
    canSelectMany: false,
    filters: { [vscode.l10n.t('Audio')]: [...TRANSCRIPTION_FILE_EXTENSIONS], [vscode.l10n.t('All files')]: ['*'] },
  });
  return picked?.[0];
}

/** '' = let the model detect the language; undefined = the user dismissed the pick. */
async function pickLanguage(): Promise<string | undefined> {
  const items = [{ label: vscode.l10n.t('Detect automatically'), code: '' }, ...TRANSCRIPTION_LANGUAGES.map(([code, name]) => ({ label: name, description: code, code }))];
  return (await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Transcribe: language (optional)'), placeHolder: vscode.l10n.t('The language spoken; a known language improves accuracy and speed'), matchOnDescription: true, ignoreFocusOut: true }))?.code;
}

/** Subtitles are most useful beside their audio (players pick them up by name). */
async function offerSubtitleSave(audio: vscode.Uri, format: 'srt' | 'vtt', content: string): Promise<vscode.Uri | undefined> {
  const target = audio.with({ path: subtitlePath(audio.path, format) });
  const action = vscode.l10n.t('Save as {0}', basename(target));
  const answer = await vscode.window.showInformationMessage(vscode.l10n.t('Transcript of {0} ready.', basename(audio)), action);
  if (answer !== action) return undefined;
  await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(content));
  void vscode.window.setStatusBarMessage(vscode.l10n.t('$(check) Saved {0}', vscode.workspace.asRelativePath(target)), 4000);
  return target;
}

function basename(uri: vscode.Uri): string {
  return uri.path.split('/').pop() ?? uri.path;
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}
