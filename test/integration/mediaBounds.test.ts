// What the extension host downloads or reads is bounded: an image answer where some links fail
// keeps the images that arrived (saved with the extension of their real type), and an audio file
// too large to transcribe is refused (or asked about) before it is read or uploaded.
import * as assert from 'node:assert/strict';
import { open } from 'node:fs/promises';
import * as vscode from 'vscode';
import type { GeneratedImages } from '../../src/extension/media/generateImageCommand';
import { MEDIA_COMMANDS } from '../../src/extension/media/mediaCommands';
import type { Outcome } from '../../src/extension/media/mediaRun';
import type { TranscribeResult } from '../../src/extension/media/transcribeCommand';
import type { TestApi } from '../../src/extension/testApi';
import { startGateway, type LocalGateway } from '../gateway/index';
import {
  activateExtension,
  clearKeyThroughCommand,
  setKeyThroughCommand,
  setSetting,
  setSettingQuietly,
} from './extensionHost';
import { answerPrompts, type Answers, type Prompted } from './mediaPrompts';

const IMAGE = 'sim-openai/dall-e-sim-3';
const MiB = 1024 * 1024;
const folder = (...path: string[]): vscode.Uri =>
  vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, 'bounds-test', ...path);

/** A file of that size that takes no disk space (sparse): what matters is what stat says. */
async function sparseFile(uri: vscode.Uri, bytes: number): Promise<void> {
  const handle = await open(uri.fsPath, 'w');
  try {
    await handle.truncate(bytes);
  } finally {
    await handle.close();
  }
}

describe('media bounds: failing image links, audio too large (local gateway)', function () {
  this.timeout(90_000);
  let gateway: LocalGateway;
  let api: TestApi;

  const setQuietly = (key: string, value: unknown): Promise<void> => setSettingQuietly(api, key, value);

  async function run<T>(
    command: string,
    answers: Answers,
    args: unknown[] = [],
  ): Promise<{ outcome: Outcome<T> | undefined; prompted: Prompted }> {
    const prompted = answerPrompts(answers);
    try {
      return { outcome: await vscode.commands.executeCommand<Outcome<T> | undefined>(command, ...args), prompted };
    } finally {
      prompted.restore();
    }
  }

  before(async () => {
    api = await activateExtension();
    gateway = await startGateway();
    await setSetting('baseUrl', gateway.url);
    await setKeyThroughCommand(gateway.apiKey);
    await vscode.workspace.fs.createDirectory(folder());
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await setSetting('defaultModels.image', undefined);
    await setSetting('images.folder', undefined);
    await vscode.workspace.fs.delete(folder(), { recursive: true }).then(undefined, () => undefined);
    await clearKeyThroughCommand(true);
    await setSetting('baseUrl', undefined);
    await gateway?.stop();
  });

  describe('Generate Image... with some links that fail', () => {
    const answers: Answers = {
      inputs: { prompt: 'A harbour at night' },
      picks: { size: '1024x1024', quality: 'standard', 'how many images': '4' },
    };

    it('keeps the images that arrived, each savable with the extension of its real type, and says why the others were not kept', async () => {
      await setQuietly('images.folder', 'bounds-test/generated');
      await setQuietly('defaultModels.image', `${IMAGE}::images=jpeg,svg-as-png,webp,redirect-link-local`);
      gateway.clearRequests();
      const { outcome, prompted } = await run<GeneratedImages>(MEDIA_COMMANDS.generateImage, answers);
      assert.equal(outcome?.kind, 'done', JSON.stringify(outcome));
      if (outcome?.kind !== 'done') return;
      const { entries, gallery, failures } = outcome.value;

      assert.deepEqual(
        entries.map((entry) => entry.type.label).sort(),
        ['JPEG', 'WebP'],
        'the two good images are kept',
      );
      assert.deepEqual(
        failures.map((failure) => failure.position),
        ['Image 2 of 4', 'Image 4 of 4'],
      );
      assert.match(failures[0]!.message, /is an SVG image, not a PNG, JPEG, WebP or GIF image/);
      assert.match(failures[1]!.message, /169\.254\.169\.254: that is a link-local address/);
      assert.deepEqual(
        gallery.failures
          .slice(0, 2)
          .map((failure) => failure.position)
          .sort(),
        ['Image 2 of 4', 'Image 4 of 4'],
        'the gallery shows the failures',
      );
      assert.match(prompted.warnings[0] ?? '', /2 of 4 images arrived; 2 could not be kept/);
      assert.deepEqual(prompted.errors, []);
      assert.equal(
        gateway.requests.filter((r) => r.path.startsWith('/files/links/redirect-link-local/')).length,
        1,
        'the redirect was asked once and not followed',
      );

      const magic: Record<string, number[]> = { jpg: [0xff, 0xd8, 0xff], webp: [0x52, 0x49, 0x46, 0x46] };
      for (const entry of entries) {
        await gallery.receive({ type: 'save', id: entry.image.id });
        const saved = entry.saved;
        assert.ok(saved, `${entry.type.label} saved`);
        assert.match(
          saved.path,
          new RegExp(`/bounds-test/generated/image-\\d{8}-\\d{6}-a-harbour-at-night-\\d\\.${entry.type.extension}$`),
        );
        const bytes = await vscode.workspace.fs.readFile(saved);
        assert.deepEqual([...bytes.subarray(0, magic[entry.type.extension]!.length)], magic[entry.type.extension]);
      }
    });

    it('fails with the reason when no image of the answer can be kept', async () => {
      await setQuietly('defaultModels.image', `${IMAGE}::images=html`);
      const { outcome, prompted } = await run<GeneratedImages>(MEDIA_COMMANDS.generateImage, {
        ...answers,
        picks: { ...answers.picks, 'how many images': '1' },
      });
      assert.equal(outcome?.kind, 'failed', JSON.stringify(outcome));
      assert.match(prompted.errors[0] ?? '', /is an HTML page, not a PNG, JPEG, WebP or GIF image/);
      // The gateway charged for the answer: Retry would generate (and pay) again, so none is offered.
      assert.ok(
        !(prompted.errorButtons[0] ?? []).includes('Retry'),
        `buttons: ${prompted.errorButtons[0]?.join(', ')}`,
      );
    });
  });

  describe('Transcribe Audio File... with a file too large', () => {
    it('refuses a file over 256 MiB from its size alone: nothing asked, nothing read or sent', async () => {
      const huge = folder('huge.wav');
      await sparseFile(huge, 300 * MiB);
      gateway.clearRequests();
      const { outcome, prompted } = await run<TranscribeResult>(MEDIA_COMMANDS.transcribe, {}, [huge]);
      assert.equal(outcome?.kind, 'failed', JSON.stringify(outcome));
      assert.match(
        prompted.errors[0] ?? '',
        /^huge\.wav is 300 MB: the most the extension uploads for transcription is 256 MB .*Split the audio or compress it/,
      );
      assert.deepEqual(prompted.titles, [], 'no model, language or format was asked');
      assert.equal(gateway.requests.length, 0, 'nothing was sent');
    });

    it('asks before uploading a file over 25 MiB, and sends nothing when the user declines', async () => {
      const long = folder('long.wav');
      await sparseFile(long, 30 * MiB);
      gateway.clearRequests();
      const { outcome, prompted } = await run<TranscribeResult>(MEDIA_COMMANDS.transcribe, {}, [long]);
      assert.equal(outcome?.kind, 'cancelled', JSON.stringify(outcome));
      assert.match(
        prompted.warnings[0] ?? '',
        /^long\.wav is 30 MB\. Gateways usually refuse audio over 25 MB \(HTTP 413\).*Upload it anyway\?$/,
      );
      assert.deepEqual(prompted.titles, []);
      assert.equal(gateway.requests.length, 0);
    });
  });
});
