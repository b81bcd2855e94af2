import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { splitSpeechInput } from '../../src/core/media/speechInput';
import type { GeneratedImages } from '../../src/extension/media/generateImageCommand';
import { MEDIA_COMMANDS } from '../../src/extension/media/mediaCommands';
import type { Outcome } from '../../src/extension/media/mediaRun';
import type { ReadAloudResult, SavedSpeech } from '../../src/extension/media/speechCommands';
import type { TranscribeResult } from '../../src/extension/media/transcribeCommand';
import type { TestApi } from '../../src/extension/testApi';
import { startGateway, type LocalGateway } from '../gateway/index';
import { encodeWav, parseWav } from '../gateway/wav';
import {
  activateExtension,
  clearKeyThroughCommand,
  setKeyThroughCommand,
  setSetting,
  setSettingQuietly,
  waitFor,
} from './extensionHost';
import { answerPrompts, type Answers } from './mediaPrompts';

const WHISPER = 'sim-openai/whisper-sim-1';
const TTS = 'sim-openai/tts-sim-1';
const IMAGE = 'sim-openai/dall-e-sim-3';
const SLOW = '::delay-headers=20000';
const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

const root = (): vscode.Uri => vscode.workspace.workspaceFolders![0]!.uri;
const inWorkspace = (...path: string[]): vscode.Uri => vscode.Uri.joinPath(root(), 'media-test', ...path);
const exists = (uri: vscode.Uri): Thenable<boolean> =>
  vscode.workspace.fs.stat(uri).then(
    () => true,
    () => false,
  );

/** A 1.5 s WAV: 24 kHz mono 16-bit, a plain tone. */
function testWav(seconds = 1.5): Uint8Array {
  const samples = Math.round(24_000 * seconds);
  const pcm = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++)
    pcm.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / 24_000)), i * 2);
  return encodeWav(pcm, 24_000);
}

describe('media commands (transcription, read aloud, images) against the local gateway', function () {
  this.timeout(90_000);
  let gateway: LocalGateway;
  let audio: vscode.Uri;
  let api: TestApi;

  const setQuietly = (key: string, value: unknown): Promise<void> => setSettingQuietly(api, key, value);

  async function setModel(category: string, id: string | undefined): Promise<void> {
    await setQuietly(`defaultModels.${category}`, id);
  }

  async function run<T>(
    command: string,
    answers: Answers,
    args: unknown[] = [],
    probe: Record<string, string[]> = {},
  ): Promise<{ outcome: Outcome<T> | undefined; prompted: ReturnType<typeof answerPrompts> }> {
    const prompted = answerPrompts(answers, probe);
    try {
      return { outcome: await vscode.commands.executeCommand<Outcome<T> | undefined>(command, ...args), prompted };
    } finally {
      prompted.restore();
    }
  }

  /** Starts a command whose request the gateway holds (delay-headers), cancels it once the request arrived. */
  async function cancelMidway<T>(
    command: string,
    answers: Answers,
    path: string,
    args: unknown[] = [],
  ): Promise<Outcome<T> | undefined> {
    gateway.clearRequests();
    const prompted = answerPrompts(answers);
    try {
      const pending = vscode.commands.executeCommand<Outcome<T> | undefined>(command, ...args);
      const record = await gateway.waitForRequest(path, 15_000);
      const started = Date.now();
      prompted.cancel();
      const outcome = await pending;
      assert.ok(Date.now() - started < 5_000, 'ended soon after the cancel, not when the gateway answered');
      assert.equal(await record.closed, 'aborted', 'the request was aborted on the wire');
      assert.deepEqual(prompted.errors, [], 'a cancel is not an error');
      return outcome;
    } finally {
      prompted.restore();
    }
  }

  async function selectText(text: string): Promise<void> {
    const document = await vscode.workspace.openTextDocument({ content: text, language: 'markdown' });
    const editor = await vscode.window.showTextDocument(document);
    editor.selection = new vscode.Selection(0, 0, document.lineCount, 0);
  }

  before(async () => {
    api = await activateExtension();
    gateway = await startGateway();
    await setSetting('baseUrl', gateway.url);
    await setKeyThroughCommand(gateway.apiKey);
    await vscode.workspace.fs.createDirectory(inWorkspace());
    audio = inWorkspace('talk.wav');
    await vscode.workspace.fs.writeFile(audio, testWav());
    await setModel('transcription', WHISPER);
    await setModel('speech', TTS);
    await setModel('image', IMAGE);
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    for (const category of ['transcription', 'speech', 'image'])
      await setSetting(`defaultModels.${category}`, undefined);
    await vscode.workspace.fs.delete(inWorkspace(), { recursive: true }).then(undefined, () => undefined);
    await clearKeyThroughCommand(true);
    await setSetting('baseUrl', undefined);
    await gateway?.stop();
  });

  describe('Transcribe Audio File...', () => {
    const transcribe = (
      format: string,
      language = 'German',
      press?: string,
    ): ReturnType<typeof run<TranscribeResult>> =>
      run<TranscribeResult>(
        MEDIA_COMMANDS.transcribe,
        {
          picks: { 'language (optional)': language, 'output format': format },
          inputs: { 'prompt (optional)': 'Names: Ada.' },
          ...(press ? { press } : {}),
        },
        [audio],
      );

    it('transcribes a WAV made by the test in every output format, each in its editor', async () => {
      const seen: Record<string, TranscribeResult> = {};
      for (const format of ['text', 'srt', 'vtt', 'verbose_json', 'json']) {
        gateway.clearRequests();
        const { outcome } = await transcribe(format);
        assert.equal(outcome?.kind, 'done', `${format}: ${JSON.stringify(outcome)}`);
        if (outcome?.kind === 'done') seen[format] = outcome.value;
        const sent = gateway.requests.find((r) => r.path === '/api/v1/audio/transcriptions');
        const body = sent?.body as {
          response_format: string;
          language: string;
          prompt: string;
          model: string;
          file: { filename: string; bytes: number };
        };
        assert.deepEqual(
          [body.response_format, body.language, body.prompt, body.model, body.file.filename, body.file.bytes],
          [format, 'de', 'Names: Ada.', WHISPER, 'talk.wav', testWav().length],
        );
      }
      assert.equal(seen.text?.document.languageId, 'plaintext');
      assert.ok(seen.text.document.getText().trim().length > 0);
      assert.match(seen.srt!.document.getText(), /^1\r?\n00:00:00,000 --> 00:00:0\d,\d{3}/);
      assert.match(seen.vtt!.document.getText(), /^WEBVTT/);
      // Each in its own format's language (SubRip and WebVTT are the extension's), untitled.
      assert.deepEqual(
        Object.entries(seen).map(([format, result]) => [format, result.document.languageId]),
        [
          ['text', 'plaintext'],
          ['srt', 'srt'],
          ['vtt', 'vtt'],
          ['verbose_json', 'markdown'],
          ['json', 'json'],
        ],
      );
      assert.ok(Object.values(seen).every((result) => result.document.isUntitled));
      const json = JSON.parse(seen.json!.document.getText()) as {
        duration: number;
        language: string;
        words: unknown[];
      };
      assert.equal(seen.json!.document.languageId, 'json');
      assert.equal(json.duration, 1.5, 'the gateway read the duration from the WAV header the test wrote');
      assert.equal(json.language, 'de');
      assert.ok(json.words.length > 0, 'whisper-sim-1 gives word timestamps');
      assert.equal(seen.verbose_json!.document.languageId, 'markdown');
      assert.match(
        seen.verbose_json!.document.getText(),
        /Duration: 1\.50[\s\S]*## Segments[\s\S]*## Words\n\n\| Word \| Start \| End \|/,
      );
      assert.equal(vscode.window.activeTextEditor?.document, seen.json!.document, 'the result is shown');
    });

    it('opens the transcript wrapped: a long line shows on several lines of its editor', async () => {
      const long = `Names: ${'Ada Lovelace, Charles Babbage, Grace Hopper, '.repeat(3)}`.trim();
      const { outcome } = await run<TranscribeResult>(
        MEDIA_COMMANDS.transcribe,
        { picks: { 'language (optional)': 'English', 'output format': 'text' }, inputs: { 'prompt (optional)': long } },
        [audio],
      );
      assert.equal(outcome?.kind, 'done');
      const editor = vscode.window.activeTextEditor;
      assert.ok(
        editor && outcome?.kind === 'done' && editor.document === outcome.value.document,
        'the transcript is shown',
      );
      assert.ok(editor.document.lineAt(0).text.length > 200, 'one long line');
      // Down by a wrapped line stays on the first line of the document only where it wraps.
      const wrappedDown = async (): Promise<vscode.Position> => {
        editor.selection = new vscode.Selection(0, 0, 0, 0);
        await vscode.commands.executeCommand('cursorMove', { to: 'down', by: 'wrappedLine' });
        return editor.selection.active;
      };
      const moved = await waitFor(wrappedDown, (at) => at.line === 0 && at.character > 0, 'a wrapped first line');
      assert.equal(moved.line, 0);
    });

    it('saves subtitles next to the audio when asked', async () => {
      const { outcome } = await transcribe('vtt', 'Detect automatically', 'Save as');
      assert.equal(outcome?.kind, 'done');
      const saved = outcome?.kind === 'done' ? outcome.value.saved : undefined;
      assert.equal(saved?.toString(), inWorkspace('talk.vtt').toString());
      assert.match(new TextDecoder().decode(await vscode.workspace.fs.readFile(saved)), /^WEBVTT/);
      const body = gateway.requests.filter((r) => r.path === '/api/v1/audio/transcriptions').at(-1)?.body as Record<
        string,
        unknown
      >;
      assert.equal(body.language, undefined, 'no language sent when detecting');
    });

    it('refuses a file that is not audio before uploading it', async () => {
      const notes = inWorkspace('notes.txt');
      await vscode.workspace.fs.writeFile(notes, new TextEncoder().encode('not audio'));
      gateway.clearRequests();
      const { outcome, prompted } = await run<TranscribeResult>(MEDIA_COMMANDS.transcribe, {}, [notes]);
      assert.equal(outcome?.kind, 'failed');
      assert.match(prompted.errors[0] ?? '', /notes\.txt is not an audio file .*\.mp3, .*\.wav, \.webm/);
      assert.deepEqual(prompted.titles, [], 'nothing was asked');
      assert.equal(gateway.requests.length, 0, 'nothing was sent');
    });

    it('says clearly when the gateway finds the file too large (413)', async () => {
      await setModel('transcription', `${WHISPER}::status=413`);
      try {
        const { outcome, prompted } = await transcribe('json');
        assert.equal(outcome?.kind, 'failed');
        assert.match(prompted.errors[0] ?? '', /too large \(HTTP 413\)\. Shorten or compress/);
      } finally {
        await setModel('transcription', WHISPER);
      }
    });

    it('cancel aborts the upload in flight', async () => {
      await setModel('transcription', `${WHISPER}${SLOW}`);
      try {
        const outcome = await cancelMidway<TranscribeResult>(
          MEDIA_COMMANDS.transcribe,
          { picks: { 'language (optional)': 'English', 'output format': 'text' }, inputs: { 'prompt (optional)': '' } },
          '/api/v1/audio/transcriptions',
          [audio],
        );
        assert.equal(outcome?.kind, 'cancelled');
      } finally {
        await setModel('transcription', WHISPER);
      }
    });
  });

  describe('Read Selection Aloud / Save Selection as Speech...', () => {
    const speechAnswers = (format: string, saveTo?: vscode.Uri, voice = 'nova'): Answers => ({
      picks: { voice, 'audio format': format },
      inputs: { speed: '1.25' },
      ...(saveTo ? { saveTo } : {}),
    });

    it('saves a selection as WAV: RIFF bytes, with the voice, format and speed asked for; speed is validated', async () => {
      await selectText('Hello from the editor. This is read aloud.');
      const target = inWorkspace('hello.wav');
      gateway.clearRequests();
      const { outcome, prompted } = await run<SavedSpeech>(
        MEDIA_COMMANDS.saveSpeech,
        speechAnswers('wav', target),
        [],
        { speed: ['0.1', '4.5', 'fast', '0.25', '4'] },
      );
      assert.equal(outcome?.kind, 'done', JSON.stringify(outcome));
      assert.deepEqual(
        prompted.validation.speed?.map((problem) => problem === undefined),
        [false, false, false, true, true],
      );
      const bytes = Buffer.from(await vscode.workspace.fs.readFile(target));
      assert.equal(bytes.toString('ascii', 0, 4), 'RIFF');
      assert.equal(bytes.toString('ascii', 8, 12), 'WAVE');
      assert.ok((parseWav(bytes)?.durationSeconds ?? 0) > 0.5);
      const body = gateway.requests.find((r) => r.path === '/api/v1/audio/speech')?.body as Record<string, unknown>;
      assert.deepEqual(
        [body.voice, body.response_format, body.speed, body.model, body.input],
        ['nova', 'wav', 1.25, TTS, 'Hello from the editor. This is read aloud.'],
      );
    });

    it('splits text over 4096 characters at sentences: parts asked in order, WAV joined into one file, FLAC saved per part', async () => {
      const text = Array.from(
        { length: 120 },
        (_, i) => `Sentence ${i + 1} is here to make the text long enough.`,
      ).join(' ');
      const parts = splitSpeechInput(text);
      assert.ok(text.length > 4096 && parts.length === 2);
      await selectText(text);
      gateway.clearRequests();
      const wav = await run<SavedSpeech>(MEDIA_COMMANDS.saveSpeech, speechAnswers('wav', inWorkspace('long.wav')));
      assert.deepEqual(
        wav.outcome?.kind === 'done' && [
          wav.outcome.value.parts,
          wav.outcome.value.joined,
          wav.outcome.value.files.length,
        ],
        [2, true, 1],
      );
      const inputs = gateway.requests
        .filter((r) => r.path === '/api/v1/audio/speech')
        .map((r) => (r.body as { input: string }).input);
      assert.deepEqual(inputs, parts);
      const joined = parseWav(Buffer.from(await vscode.workspace.fs.readFile(inWorkspace('long.wav'))));
      assert.ok(joined && joined.durationSeconds > 20, `one WAV holding both parts (${joined?.durationSeconds} s)`);

      const flac = await run<SavedSpeech>(MEDIA_COMMANDS.saveSpeech, speechAnswers('flac', inWorkspace('long.flac')));
      assert.equal(flac.outcome?.kind, 'done');
      for (const name of ['long-1.flac', 'long-2.flac']) {
        assert.equal(
          Buffer.from(await vscode.workspace.fs.readFile(inWorkspace(name))).toString('ascii', 0, 4),
          'fLaC',
          name,
        );
      }
      assert.ok(!(await exists(inWorkspace('long.flac'))));
    });

    it('takes a raw voice id typed by the user', async () => {
      await selectText('A raw voice.');
      gateway.clearRequests();
      const { outcome } = await run<SavedSpeech>(MEDIA_COMMANDS.saveSpeech, {
        picks: { voice: 'Other voice id...', 'audio format': 'mp3' },
        inputs: { 'voice id': 'my-cloned-voice', speed: '1' },
        saveTo: inWorkspace('raw.mp3'),
      });
      assert.equal(outcome?.kind, 'done');
      assert.equal(
        (gateway.requests.find((r) => r.path === '/api/v1/audio/speech')?.body as { voice: string }).voice,
        'my-cloned-voice',
      );
    });

    it('offers the formats the gateway returns (those the audio panel plays, to read aloud)', async () => {
      await selectText('Which formats?');
      const read = await run<ReadAloudResult>(MEDIA_COMMANDS.readAloud, { picks: { voice: 'alloy' } });
      assert.equal(read.outcome, undefined, 'stopped at the format pick');
      const labels = (title: string, prompted: typeof read.prompted): string[] =>
        (prompted.offered[title] ?? []).map((item) => item.label).sort();
      // The spec's formats (gateway-api "POST /audio/speech"); raw PCM has no header a player can read.
      assert.deepEqual(labels('audio format', read.prompted), ['aac', 'flac', 'mp3', 'opus', 'wav']);
      const save = await run<SavedSpeech>(MEDIA_COMMANDS.saveSpeech, { picks: { voice: 'alloy' } });
      assert.equal(save.outcome, undefined);
      assert.deepEqual(labels('audio format', save.prompted), ['aac', 'flac', 'mp3', 'opus', 'pcm', 'wav']);
    });

    it('asks less each time: the last voice, format and speed come first, and Enter takes them', async () => {
      await selectText('Remember my voice.');
      const first = await run<ReadAloudResult>(MEDIA_COMMANDS.readAloud, speechAnswers('flac', undefined, 'onyx'));
      assert.equal(first.outcome?.kind, 'done', JSON.stringify(first.outcome));
      gateway.clearRequests();
      const again = await run<ReadAloudResult>(MEDIA_COMMANDS.readAloud, {
        first: ['voice', 'audio format'],
        inputs: { speed: true },
      });
      assert.equal(again.outcome?.kind, 'done', JSON.stringify(again.outcome));
      assert.deepEqual(again.prompted.offered.voice?.[0], { label: 'onyx', description: 'last used' });
      assert.deepEqual(again.prompted.offered['audio format']?.[0], { label: 'flac', description: 'last used' });
      assert.equal(again.prompted.values.speed, '1.25', 'the last speed is in the box');
      const body = gateway.requests.find((r) => r.path === '/api/v1/audio/speech')?.body as Record<string, unknown>;
      assert.deepEqual([body.voice, body.response_format, body.speed], ['onyx', 'flac', 1.25]);
      // A typed voice id is offered next time too; what is kept is the choice, never the key.
      await selectText('A cloned voice.');
      const typed = await run<SavedSpeech>(MEDIA_COMMANDS.saveSpeech, {
        picks: { voice: 'Other voice id...', 'audio format': 'mp3' },
        inputs: { 'voice id': 'my-cloned-voice', speed: '1' },
        saveTo: inWorkspace('cloned.mp3'),
      });
      assert.equal(typed.outcome?.kind, 'done');
      const next = await run<ReadAloudResult>(MEDIA_COMMANDS.readAloud, {});
      assert.deepEqual(next.prompted.offered.voice?.[0], { label: 'my-cloned-voice', description: 'last used' });
      const stored = JSON.stringify(api.storedState());
      assert.match(stored, /"voice":"my-cloned-voice","format":"mp3","speed":1/);
      assert.ok(!stored.includes(gateway.apiKey), 'never the key');
    });

    it('reads a selection aloud in the audio panel', async () => {
      await selectText('Read this aloud, please.');
      const { outcome } = await run<ReadAloudResult>(MEDIA_COMMANDS.readAloud, speechAnswers('mp3'));
      assert.deepEqual(outcome?.kind === 'done' && outcome.value.parts, 1);
      const tabs = vscode.window.tabGroups.all.flatMap((group) => group.tabs.map((tab) => tab.label));
      assert.ok(tabs.includes('Unified Inference Audio'), tabs.join(', '));
    });

    it('cancel aborts the speech request and writes nothing', async () => {
      await setModel('speech', `${TTS}${SLOW}`);
      try {
        await selectText('This will be cancelled.');
        const outcome = await cancelMidway<SavedSpeech>(
          MEDIA_COMMANDS.saveSpeech,
          speechAnswers('wav', inWorkspace('cancelled.wav')),
          '/api/v1/audio/speech',
        );
        assert.equal(outcome?.kind, 'cancelled');
        assert.ok(!(await exists(inWorkspace('cancelled.wav'))));
      } finally {
        await setModel('speech', TTS);
      }
    });
  });

  describe('Generate Image...', () => {
    const imageAnswers: Answers = {
      inputs: { prompt: 'A lighthouse at dusk' },
      picks: { size: '1792x1024', quality: 'hd', 'how many images': '2' },
    };

    it('generates into the gallery (URLs downloaded by the host), saves PNGs, copies a link, regenerates', async () => {
      await setQuietly('images.folder', 'media-test/generated');
      gateway.clearRequests();
      const { outcome } = await run<GeneratedImages>(MEDIA_COMMANDS.generateImage, imageAnswers);
      assert.equal(outcome?.kind, 'done', JSON.stringify(outcome));
      if (outcome?.kind !== 'done') return;
      const { entries, gallery } = outcome.value;
      assert.equal(entries.length, 2);
      const body = gateway.requests.find((r) => r.path === '/api/v1/images/generations')?.body as Record<
        string,
        unknown
      >;
      assert.deepEqual(
        [body.model, body.prompt, body.size, body.quality, body.n, body.response_format],
        [IMAGE, 'A lighthouse at dusk', '1792x1024', 'hd', 2, 'url'],
      );
      assert.equal(
        gateway.requests.filter((r) => r.path.startsWith('/files/images/')).length,
        2,
        'both images downloaded by the extension host',
      );
      assert.match(entries[0]!.image.revisedPrompt, /simulat/i);

      const first = entries[0]!;
      await gallery.receive({ type: 'copyLink', id: first.image.id });
      assert.equal(first.saved, undefined, 'no link before saving');
      await gallery.receive({ type: 'save', id: first.image.id });
      const saved = first.saved as vscode.Uri | undefined;
      assert.ok(saved, 'saved');
      assert.match(saved.path, /\/media-test\/generated\/image-\d{8}-\d{6}-a-lighthouse-at-dusk-\d\.png$/);
      const png = Buffer.from(await vscode.workspace.fs.readFile(saved));
      assert.deepEqual([...png.subarray(0, 8)], PNG);
      assert.equal(png.readUInt32BE(16), 1792, 'the requested width (IHDR)');
      await gallery.receive({ type: 'copyLink', id: first.image.id });
      assert.match(
        await vscode.env.clipboard.readText(),
        /^!\[[^\]]*simulat[^\]]*\]\(media-test\/generated\/image-.*\.png\)$/i,
      );

      const before = gallery.entries.length;
      const prompted = answerPrompts({});
      try {
        await gallery.receive({ type: 'regenerate', id: first.image.id });
      } finally {
        prompted.restore();
      }
      assert.equal(gallery.entries.length, before + 2, 'the same request again');
      await gallery.receive({ type: 'save', id: 'img-999999' });
      await gallery.receive({ type: 'delete', id: first.image.id });
    });

    it('Save to Workspace refuses an images folder that is a link leading out of the workspace, and writes nothing there', async () => {
      const outside = mkdtempSync(join(tmpdir(), 'ui-images-outside-'));
      const link = join(root().fsPath, 'media-test', 'link-out');
      mkdirSync(join(root().fsPath, 'media-test'), { recursive: true });
      rmSync(link, { force: true });
      symlinkSync(outside, link);
      try {
        for (const folder of ['media-test/link-out', 'media-test/link-out/made-through-the-link']) {
          await setQuietly('images.folder', folder);
          const { outcome } = await run<GeneratedImages>(MEDIA_COMMANDS.generateImage, {
            ...imageAnswers,
            picks: { ...imageAnswers.picks, 'how many images': '1' },
          });
          assert.equal(outcome?.kind, 'done', JSON.stringify(outcome));
          if (outcome?.kind !== 'done') return;
          const entry = outcome.value.entries[0]!;
          await outcome.value.gallery.receive({ type: 'save', id: entry.image.id });
          assert.equal(entry.saved, undefined, `${folder}: not saved`);
          assert.deepEqual(readdirSync(outside), [], `${folder}: nothing written outside the workspace`);
        }
      } finally {
        rmSync(link, { force: true });
        rmSync(outside, { recursive: true, force: true });
        await setSetting('images.folder', undefined);
      }
    });

    it('cancel aborts the generation', async () => {
      await setModel('image', `${IMAGE}${SLOW}`);
      try {
        const outcome = await cancelMidway<GeneratedImages>(
          MEDIA_COMMANDS.generateImage,
          { ...imageAnswers, picks: { ...imageAnswers.picks, 'how many images': '1' } },
          '/api/v1/images/generations',
        );
        assert.equal(outcome?.kind, 'cancelled');
      } finally {
        await setModel('image', IMAGE);
        await setSetting('images.folder', undefined);
      }
    });
  });
});
