import * as assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { formatCredits } from '../../src/core/account/creditsFormat';
import { createUnifiedHandler, type UnifiedHandler } from '../../src/extension/participant/unifiedParticipant';
import { saveImageToWorkspace } from '../../src/extension/participant/imageFiles';
import { PARTICIPANT_ID } from '../../src/extension/participant/participantContext';
import { Log } from '../../src/extension/log';
import { AUDIO_PANEL_TITLE } from '../../src/extension/media/audioPlayer';
import type { TestApi } from '../../src/extension/testApi';
import { startGateway, type LocalGateway } from '../gateway/index';
import {
  activateExtension,
  clearKeyThroughCommand,
  EXTENSION_ID,
  recordNotifications,
  replace,
  setKeyThroughCommand,
  setSetting,
  setSettingAndWait,
  waitFor,
} from './extensionHost';

const SLOW_MODEL = 'sim-openai/gpt-sim-mini::delay-chunks=200';

/** A ChatResponseStream that records what the participant streams. */
class Recorder implements vscode.ChatResponseStream {
  readonly markdowns: string[] = [];
  readonly buttons: vscode.Command[] = [];
  readonly anchors: (vscode.Uri | vscode.Location)[] = [];
  readonly references: (vscode.Uri | vscode.Location)[] = [];
  readonly progresses: string[] = [];

  get text(): string {
    return this.markdowns.join('');
  }
  markdown(value: string | vscode.MarkdownString): void {
    this.markdowns.push(typeof value === 'string' ? value : value.value);
  }
  anchor(value: vscode.Uri | vscode.Location): void {
    this.anchors.push(value);
  }
  button(command: vscode.Command): void {
    this.buttons.push(command);
  }
  filetree(): void {
    throw new Error('filetree not expected');
  }
  progress(value: string): void {
    this.progresses.push(value);
  }
  reference(value: vscode.Uri | vscode.Location): void {
    this.references.push(value);
  }
  push(): void {
    throw new Error('push not expected');
  }
  buttonTitles(): string[] {
    return this.buttons.map((button) => button.title);
  }
}

type HistoryTurn = vscode.ChatRequestTurn | vscode.ChatResponseTurn;

/** VS Code's turn classes have private constructors in the typings, but are constructible at run time. */
function requestTurn(prompt: string, command?: string): vscode.ChatRequestTurn {
  const Turn = vscode.ChatRequestTurn as unknown as new (
    prompt: string,
    command: string | undefined,
    references: unknown[],
    participant: string,
    toolReferences: unknown[],
  ) => vscode.ChatRequestTurn;
  return new Turn(prompt, command, [], PARTICIPANT_ID, []);
}

function responseTurn(markdown: string, command?: string): vscode.ChatResponseTurn {
  const Turn = vscode.ChatResponseTurn as unknown as new (
    response: unknown[],
    result: vscode.ChatResult,
    participant: string,
    command?: string,
  ) => vscode.ChatResponseTurn;
  return new Turn([new vscode.ChatResponseMarkdownPart(markdown)], {}, PARTICIPANT_ID, command);
}

function chatRequest(prompt: string, command?: string): vscode.ChatRequest {
  return {
    prompt,
    command,
    references: [],
    toolReferences: [],
    toolInvocationToken: undefined,
    model: undefined,
  } as unknown as vscode.ChatRequest;
}

describe('the @unified chat participant against the local gateway', function () {
  this.timeout(90_000);
  let api: TestApi;
  let gateway: LocalGateway;
  let unified: UnifiedHandler;
  let notes: ReturnType<typeof recordNotifications>;

  async function ask(
    prompt: string,
    command?: string,
    history: HistoryTurn[] = [],
    source = new vscode.CancellationTokenSource(),
  ): Promise<{ recorder: Recorder; result: vscode.ChatResult }> {
    const recorder = new Recorder();
    const result = (await unified.handler(chatRequest(prompt, command), { history }, recorder, source.token)) ?? {};
    return { recorder, result };
  }

  // A default model setting does not rebuild the connection: the command reads it when it runs.
  const setModelSetting = setSettingAndWait;

  before(async () => {
    api = await activateExtension();
    gateway = await startGateway({ research: { queuedMs: 500, runningMs: 1_500 } });
    const extension = vscode.extensions.getExtension(EXTENSION_ID)!;
    unified = createUnifiedHandler({
      connection: api.connection,
      failures: api.failures,
      research: api.research,
      reports: api.reports,
      catalog: api.catalog,
      credits: api.credits,
      log: new Log('Unified Inference (participant test)'),
      extensionUri: extension.extensionUri,
      storageUri: vscode.Uri.file(mkdtempSync(join(tmpdir(), 'ui-participant-'))),
    });
    // Out-of-credits and research notices would otherwise wait for a click.
    notes = recordNotifications();
  });

  after(async () => {
    notes?.restore();
    for (const disposable of unified?.disposables ?? []) disposable.dispose();
    await setSetting('defaultModels.chat', undefined);
    await clearKeyThroughCommand(true);
    await setSetting('baseUrl', undefined);
    await gateway?.stop();
  });

  it('says what is missing, with the button that fixes it, before the gateway and the key are set', async () => {
    await clearKeyThroughCommand(true);
    await setSetting('baseUrl', undefined);
    await waitFor(
      () => api.connection.setup.client,
      (client) => client === undefined,
      'no client',
    );
    const noGateway = await ask('Hello?');
    assert.match(noGateway.recorder.text, /gateway address is not set/);
    assert.deepEqual(
      noGateway.recorder.buttons.map((b) => b.command),
      ['unifiedInference.setBaseUrl'],
    );

    await setSetting('baseUrl', gateway.url);
    await waitFor(
      () => api.connection.setup.baseUrl,
      (url) => url === gateway.url,
      'the gateway address',
    );
    for (const command of [undefined, 'models', 'image', 'quota']) {
      const noKey = await ask('a lighthouse', command);
      assert.match(noKey.recorder.text, /No API key is set/, `/${command ?? ''}`);
      assert.deepEqual(noKey.recorder.buttonTitles(), ['Set API Key'], `/${command ?? ''}`);
    }
    assert.equal(gateway.requests.filter((r) => r.method === 'POST').length, 0, 'nothing was sent');

    await setKeyThroughCommand(gateway.apiKey);
    await waitFor(
      () => api.connection.setup,
      (setup) => setup.hasKey && setup.baseUrl === gateway.url,
      'the key',
    );
  });

  it('answers a plain prompt with the default chat model, streamed, with the conversation so far', async () => {
    const history = [
      requestTurn('What is a stream?'),
      responseTurn('A stream is a sequence of chunks.'),
      requestTurn('', 'quota'),
      responseTurn('Balance: $1.00', 'quota'),
    ];
    const { recorder, result } = await ask('And what is backpressure?', undefined, history);
    assert.match(recorder.text, /Local simulation/);
    assert.match(recorder.text, /backpressure/);
    assert.ok(recorder.markdowns.length > 3, `streamed in pieces (${recorder.markdowns.length})`);
    const sent = gateway.requests.filter((r) => r.path === '/api/v1/chat/completions').at(-1);
    const messages = (sent?.body as { messages: { role: string; content: string }[] }).messages;
    assert.deepEqual(
      messages.map((m) => m.role),
      ['user', 'assistant', 'user'],
      'the plain exchange, not the /quota turn',
    );
    assert.equal(messages[1]?.content, 'A stream is a sequence of chunks.');
    const followups = await unified.followupProvider.provideFollowups(
      result,
      { history: [] },
      new vscode.CancellationTokenSource().token,
    );
    assert.deepEqual(
      followups?.map((f) => [f.label, f.command]),
      [['Read it aloud', 'speak']],
    );
  });

  it('lists the pages an answer cites under it as numbered links, on both APIs, http(s) ones only, at most 50', async () => {
    try {
      for (const model of ['sim-openai/gpt-sim-mini', 'sim-anthropic/claude-sim-sonnet']) {
        await setModelSetting('defaultModels.chat', `${model}::web-search`);
        const { recorder } = await ask('What is new in Rust');
        const list = recorder.markdowns.at(-1) ?? '';
        assert.equal(
          list,
          '\n\n**Sources**\n\n' +
            '1. [A guide to What is new in Rust (simulated result)](<https://search.sim.example/guide/what-is-new-in-rust>)\n' +
            '2. [What is new in Rust: questions and answers (simulated)](<https://search.sim.example/faq/what-is-new-in-rust>)\n' +
            '3. [docs.sim.example](<https://docs.sim.example/reference/what-is-new-in-rust>)\n',
          model,
        );
        await setModelSetting('defaultModels.chat', `${model}::web-search=hostile`);
        const hostile = (await ask('What is new in Rust')).recorder.markdowns.at(-1) ?? '';
        assert.equal(hostile.match(/^\d+\. \[/gm)?.length, 50, model);
        assert.ok(!hostile.includes('javascript:') && !hostile.includes('file:'), model);
      }
    } finally {
      await setModelSetting('defaultModels.chat', undefined);
    }
  });

  it('cancels a plain prompt at once: the gateway sees the connection close', async () => {
    await setModelSetting('defaultModels.chat', SLOW_MODEL);
    const source = new vscode.CancellationTokenSource();
    const recorder = new Recorder();
    const pending = unified.handler(
      chatRequest('Tell me a long story about rivers.'),
      { history: [] },
      recorder,
      source.token,
    );
    await waitFor(
      () => recorder.markdowns.length,
      (n) => n >= 1,
      'the first piece of the answer',
    );
    source.cancel();
    const result = (await pending) as vscode.ChatResult;
    assert.deepEqual(result.metadata, { command: '', outcome: 'cancelled' }, result.errorDetails?.message);
    const record = await gateway.waitForRequest(
      (r) => (r.body as { model?: string } | undefined)?.model === SLOW_MODEL,
    );
    assert.equal(await record.closed, 'aborted');
    const shown = recorder.markdowns.length;
    await new Promise((resolve) => setTimeout(resolve, 600));
    assert.equal(recorder.markdowns.length, shown, 'nothing streamed after the cancellation');
    await setModelSetting('defaultModels.chat', undefined);
  });

  it('/models lists the catalog by category, the defaults marked', async () => {
    await setModelSetting('defaultModels.chat', 'sim-openai/gpt-sim');
    const { recorder, result } = await ask('', 'models');
    for (const heading of ['### Chat', '### Embedding', '### Rerank', '### Transcription', '### Speech', '### Image'])
      assert.ok(recorder.text.includes(heading), heading);
    assert.match(recorder.text, /`sim-openai\/gpt-sim` · sim-openai ★ default/);
    assert.match(recorder.text, /`sim-google\/gemini-sim-flash` · sim-google · degraded/);
    const followups = await unified.followupProvider.provideFollowups(
      result,
      { history: [] },
      new vscode.CancellationTokenSource().token,
    );
    assert.deepEqual(
      followups?.map((f) => f.command),
      ['quota'],
    );
    await setModelSetting('defaultModels.chat', undefined);
  });

  it('/quota shows the balance the gateway holds, the reset and the session spend', async () => {
    const { recorder } = await ask('', 'quota');
    assert.ok(recorder.text.includes(`**Balance: ${formatCredits(gateway.credits(gateway.apiKey))}**`), recorder.text);
    assert.match(recorder.text, /Reset: \d{4}-\d\d-\d\d \d\d:\d\d UTC \(resets in [^)]+\)/);
    assert.match(recorder.text, /Spent this session: /);
  });

  it('/image generates a PNG, shows it and saves it to the workspace', async () => {
    const { recorder, result } = await ask('a lighthouse at dusk', 'image');
    assert.deepEqual(result.metadata, { command: 'image', outcome: 'done' }, recorder.text);
    const image = recorder.references[0];
    assert.ok(image instanceof vscode.Uri, 'the image file is referenced');
    const bytes = await vscode.workspace.fs.readFile(image);
    assert.deepEqual([...bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'PNG signature');
    assert.ok(recorder.text.includes(`](${image.toString(true)})`), 'shown as a markdown image');
    assert.match(recorder.text, /revised prompt/);
    const save = recorder.buttons.find((b) => b.title === 'Save to Workspace...');
    assert.ok(save, recorder.buttonTitles().join(', '));
    const target = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, 'lighthouse.png');
    const restore = replace(vscode.window, 'showSaveDialog', async () => target);
    try {
      const saved = await saveImageToWorkspace(save.arguments?.[0]);
      assert.equal(saved?.toString(), target.toString());
    } finally {
      restore();
    }
    assert.deepEqual(await vscode.workspace.fs.readFile(target), bytes);
    await vscode.workspace.fs.delete(target);
  });

  it('/speak says so when there is no answer to read', async () => {
    const { recorder } = await ask('', 'speak', [requestTurn('', 'quota'), responseTurn('x', 'speak')]);
    assert.match(recorder.text, /no previous answer/);
  });

  it('/speak reads the last answer aloud in the audio panel', async () => {
    const answer =
      '## Streams\n\nA **stream** delivers data in pieces. See [the docs](https://example.com).\n\n```ts\nconst x = 1;\n```';
    const { recorder, result } = await ask('', 'speak', [requestTurn('What is a stream?'), responseTurn(answer)]);
    assert.deepEqual(result.metadata, { command: 'speak', outcome: 'done' }, recorder.text);
    const speech = gateway.requests.filter((r) => r.path === '/api/v1/audio/speech').at(-1);
    const input = (speech?.body as { input: string }).input;
    assert.match(input, /A stream delivers data in pieces\. See the docs\./, 'markdown syntax is not read out');
    assert.doesNotMatch(input, /https|\*\*|const x/);
    const part = unified.player.playlist?.parts[0];
    assert.ok(part, 'the audio reached the player');
    const head = part.data.subarray(0, 3);
    const mp3 =
      (head[0] === 0xff && ((head[1] ?? 0) & 0xe0) === 0xe0) || Buffer.from(head).toString('latin1') === 'ID3';
    assert.ok(mp3, `MP3 bytes (${[...head].map((b) => b.toString(16)).join(' ')})`);
    const tab = vscode.window.tabGroups.all.flatMap((group) => group.tabs).find((t) => t.label === AUDIO_PANEL_TITLE);
    assert.ok(tab && tab.input instanceof vscode.TabInputWebview, 'the player panel is open');
    // The webview's script ran under the CSP and took the playlist.
    await waitFor(
      () => unified.player.status.parts,
      (parts) => parts === 1,
      'the webview to report the playlist',
    );
    assert.ok(recorder.buttonTitles().includes('Show Player'));
  });

  it('/research starts a job, then posts its report when the job is done', async () => {
    const { recorder, result } = await ask('How do vector databases compare for code search?', 'research');
    assert.deepEqual(result.metadata, { command: 'research', outcome: 'done' }, recorder.text);
    assert.match(recorder.text, /Started a deep research job/);
    assert.match(recorder.text, /## Report\n\n\S/);
    assert.match(recorder.text, /## Sources\n\n1\. \[/);
    assert.deepEqual(
      recorder.buttons.map((b) => b.command),
      ['unifiedInference.research.reveal', 'unifiedInference.research.openReport'],
    );
    const job = (recorder.buttons[1]?.arguments?.[0] as { job: { id: string } }).job;
    assert.equal(api.research.find(job.id)?.status, 'succeeded');
    // The first button selects that job in the Research view.
    assert.deepEqual(recorder.buttons[0]?.arguments, [job.id]);
    assert.equal(
      await vscode.commands.executeCommand(recorder.buttons[0].command, ...(recorder.buttons[0].arguments ?? [])),
      true,
    );
    await waitFor(
      () => api.researchView.view.selection.map((node) => (node.kind === 'job' ? node.job.id : '')),
      (ids) => ids.includes(job.id),
      'the job selected in the Research view',
    );
  });

  it('/research without a topic explains the usage; cancelling stops the waiting, not the job', async () => {
    const usage = await ask('  ', 'research');
    assert.match(usage.recorder.text, /Give a topic/);
    const source = new vscode.CancellationTokenSource();
    const pending = ask('A topic the user walks away from', 'research', [], source);
    const started = await gateway.waitForRequest((r) => r.method === 'POST' && r.path === '/api/v1/research');
    assert.ok(started);
    await new Promise((resolve) => setTimeout(resolve, 200));
    source.cancel();
    const { result } = await pending;
    assert.deepEqual(result.metadata, { command: 'research', outcome: 'cancelled' });
  });

  it('says out of credits clearly and reports the failure', async () => {
    const saved = gateway.credits(gateway.apiKey);
    gateway.setCredits(gateway.apiKey, 0);
    try {
      const { recorder, result } = await ask('Hello again');
      assert.match(
        result.errorDetails?.message ?? '',
        /^Out of credits or usage limit reached .*The quota window resets at/s,
      );
      assert.deepEqual(recorder.buttonTitles(), ['Refresh Credits']);
      assert.deepEqual(result.metadata, { command: '', outcome: 'outOfCredits' });
      await waitFor(
        () => api.credits.state.kind,
        (kind) => kind === 'outOfCredits',
        'the credits monitor to hear of it',
      );
    } finally {
      gateway.setCredits(gateway.apiKey, saved);
    }
  });

  it('keeps the partial answer and gives the error when the stream breaks', async () => {
    await setModelSetting('defaultModels.chat', 'sim-openai/gpt-sim-mini::error-event');
    try {
      const { recorder, result } = await ask('Tell me about rivers.');
      assert.ok(recorder.text.length > 0, `the partial answer stays (${result.errorDetails?.message})`);
      assert.deepEqual(result.metadata, { command: '', outcome: 'error' });
      assert.ok(result.errorDetails?.message, 'the error is shown');
    } finally {
      await setModelSetting('defaultModels.chat', undefined);
    }
  });
});
