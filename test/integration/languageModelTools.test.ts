// The gateway's tools as another extension uses them: the second extension (test/consumerExtension)
// calls vscode.lm.invokeTool outside any chat request, so each call crosses from one extension to
// the tools of another, as an agent's would. Outside a chat request VS Code asks for a tool's
// confirmation in a workbench dialog a test cannot click; the suite turns on the global auto
// approval in its test mode (a context key VS Code provides for tests) and reads the confirmation
// texts from the tools themselves.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { BUILD_INDEX_BUTTON, BUILD_INDEX_QUESTION } from '../../src/extension/lmTools/semanticSearchTool';
import { LM_TOOLS, type LmToolKey } from '../../src/core/lmTools/toolNames';
import type { TestApi } from '../../src/extension/testApi';
import { startGateway, type LocalGateway } from '../gateway/index';
import { encodeWav } from '../gateway/wav';
import {
  activateExtension,
  clearKeyThroughCommand,
  replace,
  setKeyThroughCommand,
  setSetting,
  setSettingAndWait,
  waitFor,
} from './extensionHost';
import { closedPort } from '../harness/closedPort';

const CONSUMER_ID = 'unified-inference-tests.lm-consumer';
const AUTO_APPROVE_TEST_MODE = 'vscode.chat.tools.global.autoApprove.testMode';
const EMPTY_KEY = 'sim-empty-key';

type ToolOutcome =
  | { readonly text: string; readonly error?: undefined }
  | { readonly text?: undefined; readonly error: { readonly name: string; readonly message: string } };

interface Consumer {
  tools(): { name: string; description: string; inputSchema: unknown; tags: string[] }[];
  startTool(name: string, input: object): { done: Promise<ToolOutcome>; cancel(): void };
}

const FIXTURE: Record<string, string> = {
  'lmtools/cache.ts':
    'export class LruCache<K, V> {\n  // Evicts the least recently used entry when the cache is full.\n  get(key: K): V | undefined { return undefined; }\n}\n',
  'lmtools/http.ts':
    'export async function fetchWithRetry(url: string): Promise<Response> {\n  // Retries the request with exponential backoff on 5xx answers.\n  return fetch(url);\n}\n',
};

/** A 1.5 s WAV: 24 kHz mono 16-bit, a plain tone. */
function testWav(): Uint8Array {
  const samples = 36_000;
  const pcm = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++)
    pcm.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / 24_000)), i * 2);
  return encodeWav(pcm, 24_000);
}

/** Through the consumer's command, as the suite's other callers would. */
const invoke = (key: LmToolKey, input: object): Thenable<ToolOutcome> =>
  vscode.commands.executeCommand<ToolOutcome>('lmConsumer.invokeTool', LM_TOOLS[key].name, input);

function text(outcome: ToolOutcome): string {
  assert.equal(outcome.error, undefined, `the tool answered (got ${outcome.error?.name}: ${outcome.error?.message})`);
  return outcome.text ?? '';
}

function failure(outcome: ToolOutcome): { name: string; message: string } {
  assert.ok(outcome.error, `the tool failed (got a result: ${outcome.text?.slice(0, 300)})`);
  return outcome.error;
}

describe('the language model tools through vscode.lm.invokeTool from a second extension', function () {
  this.timeout(90_000);
  let api: TestApi;
  let gateway: LocalGateway;
  let consumer: Consumer;
  let root: vscode.Uri;
  const uri = (path: string): vscode.Uri => vscode.Uri.joinPath(root, path);
  const write = (path: string, content: string | Uint8Array): Thenable<void> =>
    vscode.workspace.fs.writeFile(uri(path), typeof content === 'string' ? new TextEncoder().encode(content) : content);
  const requests = (path: string) => gateway.requests.filter((r) => r.path === path);

  /** The confirmation a tool asks before it runs, as the tool prepares it. */
  async function confirmation(key: LmToolKey, input: object): Promise<{ title: string; message: string } | undefined> {
    const prepared = await api.lmTools[key].prepareInvocation?.({ input }, new vscode.CancellationTokenSource().token);
    const messages = prepared?.confirmationMessages;
    if (!messages) return undefined;
    return {
      title: messages.title,
      message: typeof messages.message === 'string' ? messages.message : messages.message.value,
    };
  }

  async function withKey<T>(key: string, run: () => Promise<T>): Promise<T> {
    await setKeyThroughCommand(key);
    try {
      return await run();
    } finally {
      await setKeyThroughCommand(gateway.apiKey);
    }
  }

  before(async () => {
    api = await activateExtension();
    const extension = vscode.extensions.getExtension<Consumer>(CONSUMER_ID);
    if (!extension)
      throw new Error(
        `${CONSUMER_ID} is not loaded: runIntegration passes test/consumerExtension as a second development path`,
      );
    consumer = await extension.activate();
    root = vscode.workspace.workspaceFolders?.[0]?.uri ?? assert.fail('the suite opens a folder');
    gateway = await startGateway({
      keys: { [EMPTY_KEY]: { credits: 0 } },
      research: { queuedMs: 300, runningMs: 1_500 },
    });
    await setSetting('baseUrl', gateway.url);
    await setKeyThroughCommand(gateway.apiKey);
    await waitFor(
      () => api.connection.setup,
      (setup) => setup.baseUrl === gateway.url && setup.hasKey,
      'the connection',
    );
    await setSetting('defaultModels.embedding', 'sim-openai/text-embedding-sim-small');
    await setSetting('defaultModels.rerank', 'sim-cohere/rerank-sim-v1');
    await setSetting('search.include', 'lmtools/**');
    for (const [path, content] of Object.entries(FIXTURE)) await write(path, content);
    await vscode.commands.executeCommand('unifiedInference.search.clearIndex');
    await vscode.workspace
      .getConfiguration('chat.tools.global')
      .update('autoApprove', true, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('setContext', AUTO_APPROVE_TEST_MODE, true);
  });

  after(async () => {
    await vscode.commands.executeCommand('setContext', AUTO_APPROVE_TEST_MODE, undefined);
    await vscode.workspace
      .getConfiguration('chat.tools.global')
      .update('autoApprove', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('unifiedInference.search.clearIndex');
    await vscode.workspace.fs.delete(uri('lmtools'), { recursive: true }).then(undefined, () => undefined);
    await vscode.workspace.fs.delete(uri('images'), { recursive: true }).then(undefined, () => undefined);
    for (const key of ['defaultModels.embedding', 'defaultModels.rerank', 'search.include'])
      await setSetting(key, undefined);
    await clearKeyThroughCommand(true);
    await setSetting('baseUrl', undefined);
    await gateway?.stop();
  });

  it('lists every tool to the second extension, with its description and input schema', async () => {
    const listed = await waitFor(
      () => consumer.tools().filter((tool) => tool.name.startsWith('unifiedInference_')),
      (tools) => tools.length === Object.keys(LM_TOOLS).length,
      'the tools in vscode.lm.tools',
    );
    for (const { name } of Object.values(LM_TOOLS)) {
      const tool = listed.find((candidate) => candidate.name === name);
      assert.ok(tool, `${name} is listed`);
      assert.ok(tool.description.length > 80, `${name} has a model-facing description`);
      assert.equal((tool.inputSchema as { type?: string }).type, 'object');
      assert.ok(tool.tags.includes('unified-inference'));
    }
  });

  it('states cost and duration in the confirmation of each tool that costs credits, and asks nothing for reads', async () => {
    const research = await confirmation('deepResearch', { topic: 'Vector databases' });
    assert.match(research?.message ?? '', /costs credits/);
    assert.match(research?.message ?? '', /2 to 5 minutes/);
    assert.match(research?.message ?? '', /Research view/);
    assert.match(
      (await confirmation('generateImage', { prompt: 'a lighthouse', count: 2, quality: 'hd' }))?.message ?? '',
      /Charged per image \(hd costs more\).*up to a minute/s,
    );
    assert.match(
      (await confirmation('transcribe', { path: 'lmtools/talk.wav' }))?.message ?? '',
      /Charged per minute of audio/,
    );
    assert.match(
      (await confirmation('rerank', { query: 'q', passages: ['a', 'b'] }))?.message ?? '',
      /2 passages.*fraction of a cent/s,
    );
    assert.match(
      (await confirmation('semanticSearch', { query: 'retry' }))?.message ?? '',
      /no semantic index yet.*costs credits, can take minutes/s,
    );
    assert.equal(await confirmation('credits', {}), undefined);
    assert.equal(await confirmation('researchStatus', { jobId: 'x' }), undefined);
  });

  it('#credits: the balance and when it resets', async () => {
    const answer = text(await invoke('credits', {}));
    assert.match(answer, /^Balance: \$\d+\.\d{2}/);
    assert.match(answer, /Reset: \d{4}-\d{2}-\d{2}T/);
    assert.ok(!answer.includes(gateway.apiKey));
  });

  it('#deepResearch: waits for the job, which the Research view lists, and returns its report with sources', async () => {
    gateway.clearRequests();
    const answer = text(await invoke('deepResearch', { topic: 'How do vector databases compare for code search?' }));
    const id = /job ([\w-]+) succeeded/.exec(answer)?.[1];
    assert.ok(id, answer.slice(0, 300));
    assert.equal(requests('/api/v1/research').filter((r) => r.method === 'POST').length, 1, 'one job was started');
    assert.equal(api.research.find(id)?.status, 'succeeded', 'the Research view lists the job, finished');
    assert.match(answer, /## Report/);
    assert.match(answer, /## Sources\n\n1\. \[/);
    assert.ok(!answer.includes(gateway.apiKey));
  });

  it('#deepResearch with wait=false returns the job id; #researchStatus follows it to its report', async () => {
    const started = text(await invoke('deepResearch', { topic: 'Compare embedding models', wait: false }));
    const id = /job ([\w-]+) on/.exec(started)?.[1];
    assert.ok(id, started);
    assert.match(started, /#researchStatus/);
    assert.ok(api.research.find(id), 'the Research view lists it at once');
    const running = text(await invoke('researchStatus', { jobId: id }));
    assert.match(running, /still in progress|succeeded/);
    await waitFor(
      () => api.research.find(id)?.status,
      (status) => status === 'succeeded',
      'the job to succeed',
      60_000,
    );
    const done = text(await invoke('researchStatus', { jobId: id }));
    assert.match(done, new RegExp(`Research job ${id} succeeded`));
    assert.match(done, /## Sources\n\n1\. \[/);
    const unknown = text(await invoke('researchStatus', { jobId: '00000000-0000-4000-8000-000000000000' }));
    assert.match(unknown, /No research job .* was found/);
    assert.match(
      failure(await invoke('researchStatus', { jobId: '../quota' })).message,
      /"jobId" must be a research job id/,
    );
  });

  it('cancelling #deepResearch stops the waiting, not the job', async () => {
    gateway.setResearchTimings({ queuedMs: 300, runningMs: 60_000 });
    try {
      const known = new Set(api.research.jobs.map((job) => job.id));
      const call = consumer.startTool(LM_TOOLS.deepResearch.name, { topic: 'A long investigation to cancel' });
      const job = await waitFor(
        () => api.research.jobs.find((candidate) => !known.has(candidate.id)),
        (found) => found !== undefined,
        'the job in the Research view',
      );
      call.cancel();
      const error = failure(await call.done);
      assert.match(`${error.name} ${error.message}`, /cancel/i);
      assert.notEqual(api.research.find(job!.id)?.status, 'succeeded');
      assert.ok(api.research.find(job!.id), 'the job is still listed (it goes on)');
    } finally {
      gateway.setResearchTimings({ queuedMs: 300, runningMs: 1_500 });
    }
  });

  it('#semanticSearch asks once to build the index, then searches it; a "no" is remembered', async () => {
    const asked: string[] = [];
    let answer: string | undefined = BUILD_INDEX_BUTTON;
    // Only the question is answered; other notices (e.g. "index deleted") are passed over.
    const restore = replace(vscode.window, 'showInformationMessage', async (message: string) => {
      if (message !== BUILD_INDEX_QUESTION) return undefined;
      asked.push(message);
      return answer;
    });
    try {
      gateway.clearRequests();
      const found = text(
        await invoke('semanticSearch', { query: 'where failed requests are retried with backoff', maxResults: 2 }),
      );
      assert.deepEqual(asked, [BUILD_INDEX_QUESTION], 'asked once to build the index');
      assert.ok(requests('/api/v1/embeddings').length >= 2, 'indexed, then embedded the query');
      assert.equal(requests('/api/v1/rerank').length, 1, 'reranked');
      assert.match(found, /^2 results for/);
      assert.match(found, /lmtools\/(http|cache)\.ts:\d+(-\d+)? \(score /);
      assert.match(found, /fetchWithRetry|LruCache/);
      // An index exists now: nothing is asked.
      text(await invoke('semanticSearch', { query: 'least recently used cache' }));
      assert.equal(asked.length, 1);

      await vscode.commands.executeCommand('unifiedInference.search.clearIndex');
      answer = undefined;
      assert.match(
        failure(await invoke('semanticSearch', { query: 'cache' })).message,
        /chose not to build the semantic index/,
      );
      assert.equal(asked.length, 2, 'asked again after the index was deleted');
      assert.match(
        failure(await invoke('semanticSearch', { query: 'cache' })).message,
        /chose not to build one in this session/,
      );
      assert.equal(asked.length, 2, 'a "no" is not asked again');
    } finally {
      restore();
    }
  });

  it('#rerank orders passages by relevance to the query', async () => {
    gateway.clearRequests();
    const passages = [
      'The weather is sunny today.',
      'Exponential backoff retries failed HTTP requests.',
      'Bananas are yellow.',
    ];
    const answer = text(await invoke('rerank', { query: 'retry HTTP requests with backoff', passages, topN: 2 }));
    const sent = requests('/api/v1/rerank')[0]?.body as { query: string; documents: string[]; top_n: number };
    assert.deepEqual([sent.query, sent.documents, sent.top_n], ['retry HTTP requests with backoff', passages, 2]);
    assert.match(answer, /^2 of 3 passages by relevance/);
    assert.match(answer, /\n1\. passage 1 \(score [\d.]+\): Exponential backoff/);
    assert.match(
      failure(await invoke('rerank', { query: 'q', passages: [] })).message,
      /Invalid input for rerank: .*"passages"/,
    );
  });

  it('#generateImage saves the images into the workspace images folder and returns their paths', async () => {
    const answer = text(await invoke('generateImage', { prompt: 'a lighthouse at dusk', count: 2 }));
    const paths = [...answer.matchAll(/^- (images\/image-[^\s]+\.(png|jpg|webp|gif))/gm)].map((m) => m[1]!);
    assert.equal(paths.length, 2, answer);
    for (const path of paths) {
      const bytes = await vscode.workspace.fs.readFile(uri(path));
      assert.ok(bytes.byteLength > 8, `${path} was written`);
    }
    const body = requests('/api/v1/images/generations').at(-1)?.body as { prompt: string; n: number };
    assert.deepEqual([body.prompt, body.n], ['a lighthouse at dusk', 2]);
  });

  it('#transcribe uploads a workspace audio file and returns its text; paths leaving the workspace or sensitive files are refused', async () => {
    await write('lmtools/talk.wav', testWav());
    gateway.clearRequests();
    const answer = text(await invoke('transcribe', { path: 'lmtools/talk.wav', language: 'en' }));
    assert.match(answer, /^Transcript of lmtools\/talk\.wav \(/);
    assert.match(answer, /simulat/i);
    const body = requests('/api/v1/audio/transcriptions')[0]?.body as { language: string; file: { filename: string } };
    assert.deepEqual([body.language, body.file.filename], ['en', 'talk.wav']);

    await write('lmtools/.env.wav', testWav());
    gateway.clearRequests();
    assert.match(failure(await invoke('transcribe', { path: 'lmtools/.env.wav' })).message, /sensitive/);
    assert.match(
      failure(await invoke('transcribe', { path: '../../etc/passwd.wav' })).message,
      /outside the workspace/,
    );
    assert.match(failure(await invoke('transcribe', { path: 'lmtools/cache.ts' })).message, /not an audio file/);
    assert.equal(requests('/api/v1/audio/transcriptions').length, 0, 'nothing refused was uploaded');
  });

  it('answers out of credits (429) with a message the model can act on, never with the key', async () => {
    await withKey(EMPTY_KEY, async () => {
      const refused = failure(await invoke('rerank', { query: 'q', passages: ['a', 'b'] }));
      assert.match(
        refused.message,
        /^Out of credits or usage limit reached .*The quota window resets at \d{4}-.* UTC \(in .*Do not retry now/s,
      );
      assert.ok(!refused.message.includes(EMPTY_KEY));
      const research = failure(await invoke('deepResearch', { topic: 'Anything' }));
      assert.match(research.message, /^Out of credits/);
      const credits = text(await invoke('credits', {}));
      assert.match(credits, /Out of credits|Balance: \$0\.00/);
    });
  });

  it('answers a refused key (401) by asking for a valid key, never with the key', async () => {
    const bad = 'sim-not-a-valid-key-lmtools';
    await withKey(bad, async () => {
      const refused = failure(await invoke('rerank', { query: 'q', passages: ['a', 'b'] }));
      assert.match(
        refused.message,
        /refused the API key \(401\).*"Unified Inference: Set API Key"; retrying will not help/s,
      );
      assert.ok(!refused.message.includes(bad));
    });
  });

  it('answers an unreachable gateway with its address and what to check, and no key with the command that sets one', async () => {
    const address = `http://127.0.0.1:${await closedPort()}`;
    await setSetting('baseUrl', address);
    try {
      await waitFor(
        () => api.connection.setup.baseUrl,
        (url) => url === address,
        'the closed address',
      );
      const offline = failure(await invoke('rerank', { query: 'q', passages: ['a', 'b'] }));
      assert.ok(offline.message.startsWith(`${new URL(address).host} refused the connection. `), offline.message);
      assert.match(offline.message, /Start the gateway, or correct the port in the base URL setting\./);
      assert.match(
        offline.message,
        /ask the user to check the network, and the address with "Unified Inference: Set Gateway Address"/,
      );
    } finally {
      await setSetting('baseUrl', gateway.url);
      await waitFor(
        () => api.connection.setup.baseUrl,
        (url) => url === gateway.url,
        'the gateway again',
      );
    }
    await clearKeyThroughCommand(true);
    try {
      await waitFor(
        () => api.connection.setup.hasKey,
        (hasKey) => !hasKey,
        'no key',
      );
      gateway.clearRequests();
      const noKey = failure(await invoke('rerank', { query: 'q', passages: ['a', 'b'] }));
      assert.match(
        noKey.message,
        /^No API key is set for the gateway\..*"Unified Inference: Set API Key"; retrying will not help/s,
      );
      assert.equal(requests('/api/v1/rerank').length, 0, 'nothing sent');
    } finally {
      await setKeyThroughCommand(gateway.apiKey);
      await waitFor(
        () => api.connection.setup.hasKey,
        (hasKey) => hasKey,
        'the key again',
      );
    }
  });

  it("answers a gateway server error (5xx, after the client's retries) with a message that says to try again later", async () => {
    await setSettingAndWait('defaultModels.rerank', 'sim-cohere/rerank-sim-v1::status=503');
    try {
      gateway.clearRequests();
      const failed = failure(await invoke('rerank', { query: 'q', passages: ['a', 'b'] }));
      assert.match(failed.message, /gateway failed \(503\).*Try again in a few minutes/s);
      assert.ok(requests('/api/v1/rerank').every((r) => r.status === 503));
    } finally {
      await setSettingAndWait('defaultModels.rerank', 'sim-cohere/rerank-sim-v1');
    }
  });
});
