// One way to fail, feature by feature: with no key the first thing a command shows is the Set API
// Key message (no picker, nothing sent), and a refused key (401), an account out of credits (429)
// and an unreachable gateway each end in the shared description with the actions that fix it.
// What was shown is read from the extension's Failures presenter (its onDidShow), never timed.
import * as assert from 'node:assert/strict';
import { createServer, type AddressInfo } from 'node:net';
import * as vscode from 'vscode';
import type { ShownFailure } from '../../src/extension/errors/failures';
import type { AssistantTurn } from '../../src/shared/chatModel';
import type { RequestFailure } from '../../src/extension/gateway/gatewayConnection';
import { MEDIA_COMMANDS } from '../../src/extension/media/mediaCommands';
import type { TestApi } from '../../src/extension/testApi';
import { startGateway, type LocalGateway } from '../gateway/index';
import {
  activateExtension,
  clearKeyThroughCommand,
  recordNotifications,
  replace,
  setKeyThroughCommand,
  setSetting,
  waitFor,
} from './extensionHost';
import { answerPrompts, type Answers } from './mediaPrompts';
import { closedPort } from '../harness/closedPort';
import { repeatedPhrase, sentenceProblems, timesNamed } from '../unit/core/failures/sentenceChecks';

const BAD_KEY = 'sim-not-a-valid-key-failures';
const EMPTY_KEY = 'sim-empty-key';

/** A command of the palette, with the answers its questions get. */
interface PaletteCase {
  readonly feature: string;
  readonly command: string;
  readonly args?: unknown[];
  readonly answers: Answers;
  /** The start of the failure's title. */
  readonly title: RegExp;
  /** Run first, so the command has work that asks the gateway. */
  readonly prepare?: string;
}

const IMAGE_ANSWERS: Answers = {
  inputs: { prompt: 'A lighthouse at dusk' },
  picks: { size: '1024x1024', quality: 'standard', 'how many images': '1' },
};

const PALETTE: readonly PaletteCase[] = [
  {
    feature: 'media (image)',
    command: MEDIA_COMMANDS.generateImage,
    answers: IMAGE_ANSWERS,
    title: /^Generating image failed: /,
  },
  // An empty index: a background update (a file event, a key change) may have finished it meanwhile, leaving nothing to embed.
  {
    feature: 'search (index)',
    command: 'unifiedInference.search.index',
    answers: {},
    title: /^Indexing for semantic search failed: /,
    prepare: 'unifiedInference.search.clearIndex',
  },
  {
    feature: 'research (start)',
    command: 'unifiedInference.research.start',
    answers: { inputs: { 'Start Deep Research': 'Failure paths of a gateway' } },
    title: /^The research job was not started: /,
  },
];

/** Commands checked for the key before any question. */
const NO_KEY: readonly { command: string; args?: unknown[] }[] = [
  { command: MEDIA_COMMANDS.transcribe },
  { command: MEDIA_COMMANDS.readAloud },
  { command: MEDIA_COMMANDS.saveSpeech },
  { command: MEDIA_COMMANDS.generateImage },
  { command: 'unifiedInference.search.index' },
  { command: 'unifiedInference.search.search' },
  { command: 'unifiedInference.research.start' },
];

class Recorder implements Partial<vscode.ChatResponseStream> {
  readonly buttons: vscode.Command[] = [];
  text = '';
  markdown(value: string | vscode.MarkdownString): void {
    this.text += typeof value === 'string' ? value : value.value;
  }
  progress(): void {}
  button(command: vscode.Command): void {
    this.buttons.push(command);
  }
  reference(): void {}
  anchor(): void {}
}

describe('failures: one description and its actions in every feature', function () {
  this.timeout(90_000);
  let api: TestApi;
  let gateway: LocalGateway;
  let shown: ShownFailure[];
  let listener: vscode.Disposable;
  const root = (): vscode.Uri => vscode.workspace.workspaceFolders![0]!.uri;

  before(async () => {
    api = await activateExtension();
    gateway = await startGateway({ keys: { [EMPTY_KEY]: { credits: 0 } } });
    await setSetting('baseUrl', gateway.url);
    await setKeyThroughCommand(gateway.apiKey);
    await waitFor(
      () => api.connection.setup,
      (setup) => setup.baseUrl === gateway.url && setup.hasKey,
      'the connection',
    );
    await setSetting('defaultModels.image', 'sim-openai/dall-e-sim-3');
    await setSetting('defaultModels.chat', 'sim-openai/gpt-sim-mini');
    await setSetting('defaultModels.embedding', 'sim-openai/text-embedding-sim-small');
    await setSetting('defaultModels.rerank', 'sim-cohere/rerank-sim-v1');
    await setSetting('search.include', 'failures-test/**');
    await vscode.workspace.fs.writeFile(
      vscode.Uri.joinPath(root(), 'failures-test', 'notes.md'),
      new TextEncoder().encode('# Notes\n\nA lighthouse keeps ships off the rocks.\n'),
    );
    await vscode.commands.executeCommand('unifiedInference.search.clearIndex');
    shown = [];
    listener = api.failures.onDidShow((failure) => shown.push(failure));
  });

  after(async () => {
    listener?.dispose();
    await vscode.commands.executeCommand('unifiedInference.search.clearIndex');
    await vscode.workspace.fs
      .delete(vscode.Uri.joinPath(root(), 'failures-test'), { recursive: true })
      .then(undefined, () => undefined);
    for (const key of [
      'defaultModels.image',
      'defaultModels.chat',
      'defaultModels.embedding',
      'defaultModels.rerank',
      'search.include',
    ])
      await setSetting(key, undefined);
    await clearKeyThroughCommand(true);
    await setSetting('baseUrl', undefined);
    await gateway?.stop();
  });

  async function useKey(key: string): Promise<void> {
    const version = api.connection.setup.keyVersion;
    await setKeyThroughCommand(key);
    await waitFor(
      () => api.connection.setup,
      (setup) => setup.hasKey && setup.keyVersion > version,
      'the new key',
    );
  }

  /** Runs a palette command; resolves with what the Failures presenter showed for it. */
  async function runFailing(run: PaletteCase): Promise<{ failure: ShownFailure; titles: string[] }> {
    if (run.prepare) await vscode.commands.executeCommand(run.prepare);
    shown.length = 0;
    const prompted = answerPrompts(run.answers);
    try {
      await vscode.commands.executeCommand(run.command, ...(run.args ?? []));
      const [failure] = await waitFor(
        () => shown,
        (all) => all.length > 0,
        `${run.feature}: the failure shown`,
      );
      return { failure: failure!, titles: prompted.titles };
    } finally {
      prompted.restore();
    }
  }

  it('with no key, every media, search and research command says so first, with Set API Key, and asks nothing', async () => {
    await clearKeyThroughCommand(true);
    await waitFor(
      () => api.connection.setup.hasKey,
      (hasKey) => !hasKey,
      'no key',
    );
    gateway.clearRequests();
    for (const { command, args } of NO_KEY) {
      shown.length = 0;
      const prompted = answerPrompts({});
      const opened = replace(vscode.window, 'showOpenDialog', async () =>
        assert.fail(`${command} opened a file dialog`),
      );
      try {
        await vscode.commands.executeCommand(command, ...(args ?? []));
      } finally {
        opened();
        prompted.restore();
      }
      assert.deepEqual(prompted.titles, [], `${command}: no picker or input box before the key`);
      assert.equal(shown.length, 1, `${command}: one message`);
      assert.equal(shown[0]!.description.kind, 'setup', command);
      assert.match(shown[0]!.message, /No API key is set for the gateway/, command);
      assert.deepEqual(shown[0]!.buttons, ['Set API Key'], command);
      assert.deepEqual(prompted.errors, [shown[0]!.message], `${command}: the notification is that message`);
    }
    assert.equal(gateway.requests.filter((r) => r.method === 'POST').length, 0, 'nothing was sent');

    // The chat says it in its reply's error card: the same words and the same button.
    api.chat.attach(() => undefined);
    await api.chat.handle({ type: 'newConversation' });
    await api.chat.handle({ type: 'send', text: 'Hello without a key' });
    const reply = api.chat.current.turns.at(-1) as AssistantTurn;
    assert.equal(reply.status, 'error');
    assert.equal(reply.error?.kind, 'setup');
    assert.match(reply.error?.message ?? '', /^No API key is set for the gateway\. Set one .*then try again/);
    assert.deepEqual(reply.error?.actions, ['setApiKey']);
    assert.equal(gateway.requests.filter((r) => r.method === 'POST').length, 0, 'the chat sent nothing either');
  });

  it('Set API Key on that message sets the key and the command goes on (research asks for its topic)', async () => {
    await waitFor(
      () => api.connection.setup.hasKey,
      (hasKey) => !hasKey,
      'no key',
    );
    const titles: string[] = [];
    const restores = [
      replace(vscode.window, 'showErrorMessage', async (_message: string, ...buttons: unknown[]) =>
        buttons.find((b) => b === 'Set API Key'),
      ),
      replace(vscode.window, 'showInputBox', async (options?: vscode.InputBoxOptions) => {
        titles.push(options?.title ?? '');
        return /Set API Key/.test(options?.title ?? '') ? gateway.apiKey : undefined;
      }),
    ];
    try {
      await vscode.commands.executeCommand('unifiedInference.research.start');
      await waitFor(
        () => titles,
        (seen) => seen.some((title) => /Start Deep Research/.test(title)),
        'the topic asked for after the key',
      );
      assert.match(titles[0] ?? '', /Set API Key/, 'the key first');
      assert.equal(api.connection.setup.hasKey, true);
    } finally {
      restores.reverse().forEach((restore) => restore());
    }
  });

  it('a refused key (401): the refusal and Set API Key, in media, search and research', async () => {
    await useKey(BAD_KEY);
    try {
      for (const run of PALETTE) {
        const { failure } = await runFailing(run);
        assert.equal(failure.description.kind, 'auth', run.feature);
        assert.match(failure.message, run.title, run.feature);
        assert.match(failure.message, /refused the API key \(401\).*Set a valid key/s, run.feature);
        assert.ok(!failure.message.includes(BAD_KEY), `${run.feature}: never the key`);
        assert.equal(failure.buttons[0], 'Set API Key', run.feature);
      }
    } finally {
      await useKey(gateway.apiKey);
    }
  });

  it('out of credits (429): the reset time and Refresh Credits, in media, search and research', async () => {
    await useKey(EMPTY_KEY);
    try {
      for (const run of PALETTE) {
        const { failure } = await runFailing(run);
        assert.equal(failure.description.kind, 'outOfCredits', run.feature);
        assert.match(failure.message, run.title, run.feature);
        assert.match(
          failure.message,
          /The quota window resets at \d{4}-\d\d-\d\d \d\d:\d\d UTC/,
          `${run.feature}: the reset from the credits reading`,
        );
        assert.equal(failure.buttons[0], 'Refresh Credits', run.feature);
        assert.ok(failure.buttons.includes('Retry'), `${run.feature}: Retry re-runs it`);
      }
    } finally {
      await useKey(gateway.apiKey);
    }
  });

  it('an unreachable gateway: its address, Retry, Open Settings and Show Log, in media, search and research', async () => {
    const address = `http://127.0.0.1:${await closedPort()}`;
    await setSetting('baseUrl', address);
    await waitFor(
      () => api.connection.setup.baseUrl,
      (url) => url === address,
      'the closed address',
    );
    try {
      for (const run of PALETTE) {
        const { failure } = await runFailing(run);
        assert.equal(failure.description.kind, 'unreachable', `${run.feature}: ${failure.message}`);
        assert.match(failure.message, run.title, run.feature);
        assert.ok(
          failure.message.includes(`${new URL(address).host} refused the connection. `),
          `${run.feature}: ${failure.message}`,
        );
        assert.match(
          failure.message,
          /Start the gateway, or correct the port in the base URL setting\.$/,
          `${run.feature}: Test Connection's next step`,
        );
        assert.deepEqual(failure.buttons, ['Retry', 'Open Settings', 'Show Log'], run.feature);
      }
    } finally {
      await setSetting('baseUrl', gateway.url);
      await waitFor(
        () => api.connection.setup.baseUrl,
        (url) => url === gateway.url,
        'the gateway again',
      );
    }
  });

  it('an offline gateway: the notification, Test Connection and the Models view say each thing once, in sentences', async () => {
    // A closed port, a port where something else than HTTP answers, a name that does not resolve.
    const other = createServer((socket) => socket.end('not http\r\n\r\n'));
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const hosts = [
      { host: `127.0.0.1:${await closedPort()}`, fix: 'Retry' },
      { host: `127.0.0.1:${(other.address() as AddressInfo).port}`, fix: 'Retry' },
      { host: 'gateway.unified-inference.invalid:8080', fix: 'Open Settings' },
    ];
    const said = (what: string, text: string, host: string): void => {
      assert.deepEqual(sentenceProblems(text), [], `${what}: ${text}`);
      assert.equal(repeatedPhrase(text), undefined, `${what} says something twice: ${text}`);
      assert.equal(timesNamed(text, host), 1, `${what} names ${host} once: ${text}`);
      assert.doesNotMatch(text, /Could not reach the gateway at/, what);
    };
    try {
      for (const { host, fix } of hosts) {
        const address = `http://${host}`;
        await setSetting('baseUrl', address);
        await waitFor(
          () => api.connection.setup.baseUrl,
          (url) => url === address,
          address,
        );
        const { failure } = await runFailing(PALETTE[0]!);
        assert.equal(failure.description.kind, 'unreachable', failure.message);
        said('the notification', failure.message, host);
        assert.equal(failure.buttons[0], fix, `the fix first: ${failure.buttons.join(', ')}`);

        const notes = recordNotifications();
        try {
          await vscode.commands.executeCommand('unifiedInference.testConnection');
          const shownByTest = await waitFor(
            () => notes.shown.find((note) => note.kind === 'error'),
            (note) => note !== undefined,
            'the Test Connection notification',
          );
          // Less the note on an http:// address on another machine, which names it on purpose.
          said('Test Connection', shownByTest?.message.replace(/ Note: .*$/s, '') ?? '', host);
        } finally {
          notes.restore();
        }

        await api.catalog.refresh();
        const line = api.models.message ?? '';
        assert.match(line, /^Could not refresh the catalog/);
        said('the Models view', line, host);
      }
    } finally {
      other.close();
      await setSetting('baseUrl', gateway.url);
      await waitFor(
        () => api.connection.setup.baseUrl,
        (url) => url === gateway.url,
        'the gateway again',
      );
    }
  });

  it('semantic search reports one failure once (to the connection, as shown) and shows it once: no second out-of-credits notice', async () => {
    const built = await vscode.commands.executeCommand<{ chunks: number } | undefined>('unifiedInference.search.index');
    assert.ok(built && built.chunks > 0, 'an index to search');
    await useKey(EMPTY_KEY); // another account: the credits monitor's out-of-credits notice is armed again
    const reported: RequestFailure[] = [];
    const listening = api.connection.onDidFail((failure) => reported.push(failure));
    let notices = 0;
    const noticing = api.credits.onDidShowOutOfCreditsNotice(() => notices++);
    try {
      shown.length = 0;
      const outcome = await vscode.commands.executeCommand('unifiedInference.search.search', { query: 'lighthouse' });
      assert.equal(outcome, undefined);
      await waitFor(
        () => shown,
        (all) => all.length > 0,
        'the failure shown',
      );
      // Only the refusal counts: a key change also re-reads the catalog and the research list.
      const refusals = reported.filter(({ error }) => error instanceof Error && error.name === 'RateLimitError');
      assert.equal(refusals.length, 1, 'reported to the connection once');
      assert.equal(refusals[0]!.shown, true, 'reported as shown by the command');
      assert.equal(shown.length, 1, 'shown once');
      assert.match(shown[0]!.message, /^Semantic search failed: Out of credits/);
      // The monitor decides when the failure is reported (synchronously, before the command shows it).
      assert.equal(notices, 0, 'the credits monitor did not show its own out-of-credits notice as well');
    } finally {
      noticing.dispose();
      listening.dispose();
      await useKey(gateway.apiKey);
    }
  });

  it('Retry after indexing failed on the way to a search indexes the rest, then searches (not half an index)', async () => {
    // More files than one embedding batch (64 chunks): the credits last for the first batch only.
    const folder = vscode.Uri.joinPath(root(), 'failures-test', 'many');
    for (let i = 0; i < 70; i++)
      await vscode.workspace.fs.writeFile(
        vscode.Uri.joinPath(folder, `note-${i}.md`),
        new TextEncoder().encode(`Note ${i}: the keeper of lighthouse ${i} logs the weather.\n`),
      );
    await vscode.commands.executeCommand('unifiedInference.search.clearIndex');
    const saved = gateway.credits(gateway.apiKey);
    gateway.setCredits(gateway.apiKey, 0.000001);
    let retried = false;
    const restore = replace(vscode.window, 'showErrorMessage', async (message: string, ...buttons: unknown[]) => {
      if (
        retried ||
        !/^Indexing for semantic search failed: Out of credits/.test(message) ||
        !buttons.includes('Retry')
      )
        return undefined;
      retried = true;
      gateway.setCredits(gateway.apiKey, saved);
      return 'Retry';
    });
    try {
      gateway.clearRequests();
      const outcome = await vscode.commands.executeCommand('unifiedInference.search.search', {
        query: 'lighthouse weather',
      });
      assert.equal(outcome, undefined, 'the first run ended in the failure');
      const partial = await api.searchIndex.current();
      assert.ok(
        partial && partial.chunkCount > 0 && partial.chunkCount < 71,
        `a partial index was kept (${partial?.chunkCount} chunks)`,
      );
      await waitFor(
        () => gateway.requests.filter((r) => r.path === '/api/v1/rerank').length,
        (n) => n > 0,
        'the search after Retry',
      );
      assert.ok(retried, 'Retry was pressed');
      const whole = await api.searchIndex.current();
      assert.equal(whole?.chunkCount, 71, 'the index was finished before the search');
    } finally {
      restore();
      gateway.setCredits(gateway.apiKey, saved);
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
      await vscode.commands.executeCommand('unifiedInference.search.clearIndex');
      await vscode.workspace.fs.delete(folder, { recursive: true });
    }
  });

  describe('@unified', () => {
    async function ask(prompt: string): Promise<{ recorder: Recorder; result: vscode.ChatResult }> {
      const recorder = new Recorder();
      const request = {
        prompt,
        command: undefined,
        references: [],
        toolReferences: [],
        toolInvocationToken: undefined,
        model: undefined,
      } as unknown as vscode.ChatRequest;
      const result =
        (await api.participantHandler(
          request,
          { history: [] },
          recorder as unknown as vscode.ChatResponseStream,
          new vscode.CancellationTokenSource().token,
        )) ?? {};
      return { recorder, result };
    }
    const titles = (recorder: Recorder): string[] => recorder.buttons.map((button) => button.title);

    it('401, out of credits and offline: the shared message as errorDetails, its actions as buttons', async () => {
      await useKey(BAD_KEY);
      try {
        const { recorder, result } = await ask('Hello?');
        assert.match(result.errorDetails?.message ?? '', /refused the API key \(401\).*Set a valid key/s);
        assert.ok(!(result.errorDetails?.message ?? '').includes(BAD_KEY));
        assert.deepEqual(titles(recorder), ['Set API Key']);
      } finally {
        await useKey(gateway.apiKey);
      }
      await useKey(EMPTY_KEY);
      try {
        const { recorder, result } = await ask('Hello?');
        assert.match(result.errorDetails?.message ?? '', /^Out of credits .*The quota window resets at \d{4}-/s);
        assert.deepEqual(titles(recorder), ['Refresh Credits']);
        assert.deepEqual(result.metadata, { command: '', outcome: 'outOfCredits' });
      } finally {
        await useKey(gateway.apiKey);
      }
      const address = `http://127.0.0.1:${await closedPort()}`;
      await setSetting('baseUrl', address);
      await waitFor(
        () => api.connection.setup.baseUrl,
        (url) => url === address,
        'the closed address',
      );
      try {
        const { recorder, result } = await ask('Hello?');
        assert.ok(
          (result.errorDetails?.message ?? '').includes(`${new URL(address).host} refused the connection. `),
          `${result.errorDetails?.message} / ${recorder.text}`,
        );
        assert.match(
          result.errorDetails?.message ?? '',
          /Start the gateway, or correct the port in the base URL setting\./,
        );
        assert.deepEqual(titles(recorder), ['Open Settings', 'Show Log']);
      } finally {
        await setSetting('baseUrl', gateway.url);
        await waitFor(
          () => api.connection.setup.baseUrl,
          (url) => url === gateway.url,
          'the gateway again',
        );
      }
    });
  });
});
