import * as vscode from 'vscode';
import { SPEECH_FORMATS } from '../../core/media/audioFiles';
import { splitSpeechInput } from '../../core/media/speechInput';
import type { SpeechFormat, SpeechResult } from '../../core/types/media';
import type { GatewayClient } from '../../core/transport/client';
import { joinSpeechParts } from '../../core/media/audioJoin';
import type { MediaDeps } from './mediaDeps';
import { pickModel, pickValue } from './mediaPicks';
import { runMedia, type Outcome, type Report } from './mediaRun';
import { isPlayableFormat, numberedPath, parseSpeedText, readingTitle, readSpeechMemory, rememberedFirst, SPEECH_VOICES, speedProblem, voiceIdProblem, type SpeechMemory } from '../../core/media/speechOptions';

const SPEECH_TIMEOUT_MS = 120_000;

interface SpeechChoice {
  readonly model: string;
  readonly voice: string;
  readonly format: SpeechFormat;
  readonly speed: number;
}

export interface ReadAloudResult { readonly playlist: number; readonly parts: number }
export interface SavedSpeech { readonly files: readonly vscode.Uri[]; readonly parts: number; readonly joined: boolean }

/** "Read Selection Aloud": the selection spoken in the audio panel, parts playing as they arrive. */
export async function readSelectionAloud(deps: MediaDeps): Promise<Outcome<ReadAloudResult> | undefined> {
  if (!deps.failures.requireSetup(vscode.l10n.t('Read Aloud'), () => readSelectionAloud(deps))) return undefined;
  const start = await prepare(deps, vscode.l10n.t('Read Aloud'), SPEECH_FORMATS.filter(isPlayableFormat));
  if (!start) return undefined;
  return readAloudWith(deps, start);
}

/** The reading itself, with the choices made: Retry comes back here without asking again. */
async function readAloudWith(deps: MediaDeps, start: Prepared): Promise<Outcome<ReadAloudResult>> {
  const { client, choice, parts, title } = start;
  const playlist = deps.player.start(title, parts.length);
  const outcome = await runMedia(deps.failures, vscode.l10n.t('Reading aloud'), async (signal, report) => {
    await synthesize(deps, client, choice, parts, signal, report, (index, audio) => deps.player.addPart(playlist, index, audio));
    return { playlist, parts: parts.length };
  }, () => readAloudWith(deps, start));
  // The audio panel shows the same message as the notification.
  if (outcome.kind !== 'done') deps.player.fail(playlist, outcome.kind === 'cancelled' ? vscode.l10n.t('cancelled') : outcome.message);
  return outcome;
}

/** "Save Selection as Speech...": one file, or one numbered file per part when the format cannot be joined. */
export async function saveSelectionAsSpeech(deps: MediaDeps): Promise<Outcome<SavedSpeech> | undefined> {
  if (!deps.failures.requireSetup(vscode.l10n.t('Save as Speech'), () => saveSelectionAsSpeech(deps))) return undefined;
  const start = await prepare(deps, vscode.l10n.t('Save as Speech'), SPEECH_FORMATS);
  if (!start) return undefined;
  const { choice } = start;
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const target = await vscode.window.showSaveDialog({
    title: vscode.l10n.t('Save Speech'),
    saveLabel: vscode.l10n.t('Save Speech'),
    filters: { [vscode.l10n.t('Audio')]: [choice.format] },
    ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, `speech.${choice.format}`) } : {}),
  });
  if (!target) return undefined;
  return saveSpeechWith(deps, start, target);
}

/** The saving itself, with the choices and the file made: Retry comes back here without asking again. */
async function saveSpeechWith(deps: MediaDeps, start: Prepared, target: vscode.Uri): Promise<Outcome<SavedSpeech>> {
  const { client, choice, parts } = start;
  return runMedia(deps.failures, vscode.l10n.t('Saving speech to {0}', target.path.split('/').pop() ?? ''), async (signal, report) => {
    const audio: Uint8Array[] = [];
    await synthesize(deps, client, choice, parts, signal, report, (_index, part) => audio.push(part.data));
    const joined = joinSpeechParts(choice.format, audio);
    const files = joined ? [target] : audio.map((_part, index) => target.with({ path: numberedPath(target.path, index) }));
    // Written only once every part is there: a cancel leaves no half-written reading behind.
    if (joined) await vscode.workspace.fs.writeFile(target, joined);
    else for (const [index, file] of files.entries()) await vscode.workspace.fs.writeFile(file, audio[index] ?? new Uint8Array());
    const where = files.map((file) => vscode.workspace.asRelativePath(file)).join(', ');
    void vscode.window.showInformationMessage(parts.length > 1 && !joined ? vscode.l10n.t('Speech saved in {0} parts: {1}', files.length, where) : vscode.l10n.t('Speech saved to {0}', where));
    return { files, parts: parts.length, joined: !!joined };
  }, () => saveSpeechWith(deps, start, target));
}

interface Prepared { readonly client: GatewayClient; readonly choice: SpeechChoice; readonly parts: string[]; readonly title: string }

async function prepare(deps: MediaDeps, what: string, formats: readonly SpeechFormat[]): Promise<Prepared | undefined> {
  const editor = vscode.window.activeTextEditor;
  const text = editor ? editor.selections.map((selection) => editor.document.getText(selection)).join('\n').trim() : '';
  if (!text) {
    void vscode.window.showInformationMessage(vscode.l10n.t('{0}: select the text to speak in an editor first.', what));
    return undefined;
  }
  const client = deps.connection.setup.client;
  if (!client) return undefined; // checked before: only a change of settings since then gets here
  const choice = await pickSpeechChoice(deps, what, formats);
  if (!choice) return undefined;
  return { client, choice, parts: splitSpeechInput(text), title: readingTitle(text, vscode.l10n.t('Selection')) };
}

/** Where the last voice, format and speed are kept (globalState: a preference of the user, not of a workspace). */
const SPEECH_MEMORY_KEY = 'unifiedInference.media.lastSpeech';

/**
 * Asks for the model, voice, format and speed, each offered with the last choice first (Enter
 * takes it): the second reading asks nothing new. A typed voice id is offered as a voice after.
 */
async function pickSpeechChoice(deps: MediaDeps, what: string, formats: readonly SpeechFormat[]): Promise<SpeechChoice | undefined> {
  const model = await pickModel(deps.catalog, 'speech', vscode.l10n.t('{0}: model', what));
  if (!model) return undefined;
  const last = readSpeechMemory(deps.state.get(SPEECH_MEMORY_KEY));
  const lastUsed = vscode.l10n.t('last used');
  // The translated label is the item and the answer: compared by identity.
  const otherVoice = vscode.l10n.t('Other voice id...');
  const voices = rememberedFirst([...new Set<string>([...(last.voice ? [last.voice] : []), ...SPEECH_VOICES])], last.voice);
  const picked = await pickValue([...voices, otherVoice], vscode.l10n.t('{0}: voice', what), (v) => (v === otherVoice ? vscode.l10n.t('a voice id of the provider') : v === last.voice ? lastUsed : undefined));
  const voice = picked !== otherVoice ? picked : (await vscode.window.showInputBox({ title: vscode.l10n.t('{0}: voice id', what), prompt: vscode.l10n.t('A raw voice id, passed to the provider as is'), validateInput: voiceIdProblem, ignoreFocusOut: true }))?.trim();
  if (!voice) return undefined;
  const format = await pickValue(rememberedFirst(formats, last.format), vscode.l10n.t('{0}: audio format', what), (f) => [f === 'pcm' ? vscode.l10n.t('raw 16-bit samples, no header') : undefined, f === last.format ? lastUsed : undefined].filter(Boolean).join(', ') || undefined);
  if (!format) return undefined;
  const speedText = await vscode.window.showInputBox({ title: vscode.l10n.t('{0}: speed', what), prompt: vscode.l10n.t('From 0.25 to 4; 1 is normal'), value: String(last.speed ?? 1), validateInput: speedProblem, ignoreFocusOut: true });
  const speed = speedText === undefined ? undefined : parseSpeedText(speedText);
  if (speed === undefined) return undefined;
  const memory: SpeechMemory = { voice, format, speed };
  await deps.state.update(SPEECH_MEMORY_KEY, deps.connection.redact(memory));
  return { model, voice, format, speed };
}

/** The parts requested one after another, in order: a listener hears part 1 while part 2 is made. */
async function synthesize(deps: MediaDeps, client: GatewayClient, choice: SpeechChoice, parts: readonly string[], signal: AbortSignal, report: Report, onPart: (index: number, audio: SpeechResult) => void): Promise<void> {
  for (const [index, input] of parts.entries()) {
    report(parts.length > 1 ? vscode.l10n.t('part {0} of {1}...', index + 1, parts.length) : vscode.l10n.t('with {0}...', choice.model), parts.length > 1 ? 100 / parts.length : undefined);
    const audio = await client.audio.speech({ model: choice.model, input, voice: choice.voice, response_format: choice.format, speed: choice.speed }, { signal, timeoutMs: SPEECH_TIMEOUT_MS });
    deps.connection.reportModelUse();
    onPart(index, audio);
  }
}
