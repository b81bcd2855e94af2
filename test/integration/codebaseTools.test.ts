// The chat's gateway tools and context mentions in the real extension host against the local
// gateway: search_codebase (offers to build the index with its cost, then one embedding and one
// rerank request per query, results through the workspace gate at query time), deep_research
// (asked every time, the job in the Research view, its finished report attached by @research),
// @codebase (chips from one search, or a Build Index notice) and none of it in Restricted Mode.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { AssistantTurn, UserTurn } from '../../src/shared/chatModel';
import type { HostToChatMessage } from '../../src/shared/chatProtocol';
import type { TestApi } from '../../src/extension/testApi';
import type { LocalGateway } from '../gateway/index';
import { activateExtension, disconnectGateway, connectedGateway, setSetting, waitFor } from './extensionHost';
import { watcherRun } from './indexWatch';
import { callScriptedTool, lastToolResult, newConversationWith } from './chatDriver';

const TOOL_MODEL = 'sim-openai/gpt-sim-mini::tool-args';
const PLAIN_MODEL = 'sim-openai/gpt-sim-mini';
const SECRET = 'GATED-7731 retries with exponential backoff';
const FIXTURE: Record<string, string> = {
  'codebase/cache.ts':
    'export class LruCache<K, V> {\n  // Evicts the least recently used entry when the cache is full.\n  get(key: K): V | undefined { return undefined; }\n}\n',
  'codebase/http.ts':
    'export async function fetchWithRetry(url: string): Promise<Response> {\n  // Retries the request with exponential backoff on 5xx answers.\n  return fetch(url);\n}\n',
};

describe('the chat searches the codebase by meaning and starts deep research, each at its cost', function () {
  this.timeout(120_000);
  let api: TestApi;
  let gateway: LocalGateway;
  let root: vscode.Uri;
  const posted: HostToChatMessage[] = [];
  const uri = (path: string): vscode.Uri => vscode.Uri.joinPath(root, path);
  const write = (path: string, content: string): Thenable<void> =>
    vscode.workspace.fs.writeFile(uri(path), new TextEncoder().encode(content));
  const requests = (path: string) => gateway.requests.filter((r) => r.path === path);
  const lastTurn = (): AssistantTurn => api.chat.current.turns.at(-1) as AssistantTurn;
  const notices = () => posted.flatMap((m) => (m.type === 'notice' ? [m.notice] : []));

  before(async () => {
    api = await activateExtension();
    root = vscode.workspace.workspaceFolders?.[0]?.uri ?? assert.fail('the suite opens a folder');
    gateway = await connectedGateway(api, { research: { queuedMs: 200, runningMs: 800 } });
    await setSetting('defaultModels.embedding', 'sim-openai/text-embedding-sim-small');
    await setSetting('defaultModels.rerank', 'sim-cohere/rerank-sim-v1');
    await setSetting('search.include', 'codebase/**');
    for (const [path, content] of Object.entries(FIXTURE)) await write(path, content);
    await vscode.commands.executeCommand('unifiedInference.search.clearIndex');
  });

  after(async () => {
    await vscode.commands.executeCommand('unifiedInference.search.clearIndex');
    await vscode.workspace.fs.delete(uri('codebase'), { recursive: true }).then(undefined, () => undefined);
    for (const key of ['defaultModels.chat', 'defaultModels.embedding', 'defaultModels.rerank', 'search.include'])
      await setSetting(key, undefined);
    await disconnectGateway(gateway);
  });

  it('search_codebase without an index asks to build it, saying files, tokens and price; a "no" is a tool error and costs nothing', async () => {
    await newConversationWith(api, posted, TOOL_MODEL);
    gateway.clearRequests();
    const { step, asked } = await callScriptedTool(api, posted, {
      tool: 'search_codebase',
      args: { query: 'retry with backoff' },
      decision: 'deny',
    });
    assert.match(
      asked?.notice ?? '',
      /^Build the semantic index\? 2 files, ≈ \d+ tokens, (≈ (<)?\$\d|price not listed)/,
    );
    assert.equal(step.status, 'denied');
    assert.match(lastToolResult(gateway), /chose not to build the semantic index/);
    assert.equal(requests('/api/v1/embeddings').length, 0, 'nothing was embedded');
  });

  it('search_codebase builds the index once allowed, then each query is one embedding and one rerank request', async () => {
    await newConversationWith(api, posted, TOOL_MODEL);
    const built = await callScriptedTool(api, posted, {
      tool: 'search_codebase',
      args: { query: 'retry failed requests with backoff', maxResults: 2 },
    });
    assert.equal(built.step.status, 'done', built.step.result);
    assert.ok(built.asked?.notice, 'the build was asked with its cost');
    assert.match(lastToolResult(gateway), /^2 results for "retry failed requests with backoff", reranked/);
    assert.match(lastToolResult(gateway), /codebase\/http\.ts:\d+-\d+ \(score /);

    gateway.clearRequests();
    const searched = await callScriptedTool(api, posted, {
      tool: 'search_codebase',
      args: { query: 'least recently used cache' },
    });
    assert.equal(searched.step.status, 'done', searched.step.result);
    assert.equal(searched.asked?.notice, undefined, 'with an index it asks like a workspace tool, no cost notice');
    assert.equal(requests('/api/v1/embeddings').length, 1, 'one embedding request for the query');
    assert.equal(requests('/api/v1/rerank').length, 1, 'one rerank request');
    assert.match(lastToolResult(gateway), /codebase\/cache\.ts:\d+-\d+ \(score [\d.]+\)\n```\n[\s\S]*LruCache/);
  });

  it('leaves out at query time a file indexed earlier and excluded since', async () => {
    await vscode.commands.executeCommand('unifiedInference.search.index');
    // Indexed by the watcher's update for its creation, awaited: a later one, after the exclusion
    // below, would drop it from the index itself and leave nothing for the query to filter.
    const indexed = watcherRun(
      api,
      (run) => run.report.embeddedFiles.some((f) => f.endsWith('/codebase/gated.ts')),
      'gated.ts indexed',
    );
    await write('codebase/gated.ts', `// ${SECRET}\nexport const gated = 1;\n`);
    await indexed;
    const gatedKey = uri('codebase/gated.ts').toString();
    assert.ok((await api.searchIndex.current())?.files.has(gatedKey), 'the file is in the index');
    // A setting changes what may be shared; no workspace file changed, so the index keeps the file.
    // User settings: a workspace .vscode/settings.json (or a .gitignore edit) would be seen by the
    // index's file watcher, whose update would drop the file first and race the query.
    const files = vscode.workspace.getConfiguration('files');
    await files.update('exclude', { '**/.git': true, 'codebase/gated.ts': true }, vscode.ConfigurationTarget.Global);
    try {
      await newConversationWith(api, posted, TOOL_MODEL);
      const { step } = await callScriptedTool(api, posted, {
        tool: 'search_codebase',
        args: { query: 'GATED-7731 retries with exponential backoff' },
      });
      assert.equal(step.status, 'done', step.result);
      assert.ok((await api.searchIndex.current())?.files.has(gatedKey), 'still in the index: the query filtered it');
      const found = lastToolResult(gateway);
      assert.match(found, /^\d+ results? for/, 'the search ran');
      assert.ok(!found.includes('gated.ts') && !found.includes('export const gated'), found);
      const reranked = requests('/api/v1/rerank').at(-1)?.body as { documents?: string[] } | undefined;
      assert.ok(!JSON.stringify(reranked?.documents ?? []).includes('GATED-7731 retries'), 'nor sent to the reranker');
    } finally {
      await files.update('exclude', undefined, vscode.ConfigurationTarget.Global);
      await vscode.workspace.fs.delete(uri('codebase/gated.ts'));
    }
  });

  it('@codebase attaches the top chunks as chips with their lines, for one embedding and one rerank request', async () => {
    await newConversationWith(api, posted, PLAIN_MODEL);
    gateway.clearRequests();
    await api.chat.handle({ type: 'send', text: '@codebase how are failed requests retried?' });
    const user = api.chat.current.turns.find((t): t is UserTurn => t.role === 'user');
    assert.ok(user, 'the message was sent');
    assert.ok(user.attachments.length > 0, 'chunks were attached');
    const http = user.attachments.find((a) => a.path === 'codebase/http.ts');
    assert.ok(http, JSON.stringify(user.attachments.map((a) => a.path)));
    assert.equal(http.kind, 'selection');
    assert.ok((http.startLine ?? 0) >= 1 && (http.endLine ?? 0) >= (http.startLine ?? 0));
    assert.match(http.text, /fetchWithRetry/);
    assert.equal(requests('/api/v1/embeddings').length, 1);
    assert.equal(requests('/api/v1/rerank').length, 1);
    const sent = JSON.stringify(requests('/api/v1/chat/completions').at(-1)?.body);
    assert.match(sent, /Selection from codebase\/http\.ts:\d+-\d+/);
  });

  it('@codebase without an index keeps the message back and offers Build Index', async () => {
    await vscode.commands.executeCommand('unifiedInference.search.clearIndex');
    await newConversationWith(api, posted, PLAIN_MODEL);
    posted.length = 0;
    await api.chat.handle({ type: 'send', text: '@codebase where is the cache?' });
    assert.equal(api.chat.current.turns.length, 0, 'nothing was sent');
    const notice = notices().at(-1);
    assert.match(notice?.text ?? '', /needs the semantic index/);
    assert.equal(notice?.action, 'Build Index');
    assert.ok(
      posted.some((m) => m.type === 'prefill' && m.text === '@codebase where is the cache?'),
      'the text is back in the composer',
    );
    await api.chat.handle({ type: 'noticeAction', id: notice?.id ?? 0 });
    assert.ok(await api.searchIndex.current().then((i) => (i?.chunkCount ?? 0) > 0), 'Build Index built it');
  });

  it('deep_research asks every time with its cost; a "no" starts nothing', async () => {
    await newConversationWith(api, posted, TOOL_MODEL);
    gateway.clearRequests();
    const { step, asked } = await callScriptedTool(api, posted, {
      tool: 'deep_research',
      // A right-to-left override would show "Vector databases exe.txt" reversed: it is shown as a badge.
      args: { topic: 'Vector databases \u202Etxt.exe\u202C' },
      decision: 'deny',
    });
    assert.match(asked?.notice ?? '', /costs credits \(cost set by the gateway\).*2 to 5 minutes/);
    assert.match(asked?.notice ?? '', /"Vector databases ⟨U\+202E⟩txt\.exe⟨U\+202C⟩"\?/);
    assert.doesNotMatch(asked?.notice ?? '', /[\u202A-\u202E]/);
    assert.equal(step.status, 'denied');
    assert.match(lastToolResult(gateway), /chose not to start the research job/);
    assert.equal(requests('/api/v1/research').filter((r) => r.method === 'POST').length, 0);
  });

  it('deep_research starts a job in the Research view; @research attaches its finished report', async () => {
    await newConversationWith(api, posted, TOOL_MODEL);
    gateway.clearRequests();
    const { step } = await callScriptedTool(api, posted, {
      tool: 'deep_research',
      args: { topic: 'Vector databases' },
      // "Always" counts as once here: the next call asks again.
      decision: 'always',
    });
    assert.equal(step.status, 'done', step.result);
    const jobId = step.researchJobId ?? assert.fail('the step links the job');
    assert.equal(requests('/api/v1/research').filter((r) => r.method === 'POST').length, 1);
    assert.ok(api.research.find(jobId), 'the Research view lists the job');
    assert.match(lastToolResult(gateway), new RegExp(`Started deep research job ${jobId}.*@research`));

    // Before it finished, @research says so and keeps the message.
    if (api.research.find(jobId)?.status !== 'succeeded') {
      posted.length = 0;
      const turns = api.chat.current.turns.length;
      await api.chat.handle({ type: 'send', text: '@research summarize it' });
      assert.equal(api.chat.current.turns.length, turns);
      assert.match(notices().at(-1)?.text ?? '', /has not finished yet/);
    }
    const watching = api.research.watch();
    try {
      await waitFor(
        () => api.research.find(jobId)?.status,
        (s) => s === 'succeeded',
        'the job to finish',
        60_000,
      );
    } finally {
      watching.dispose();
    }
    // The Research view's "Attach Report to Chat" on the finished job: a chip for the next message.
    const finished = api.research.find(jobId) ?? assert.fail('listed');
    await vscode.commands.executeCommand('unifiedInference.chat.attachResearchReport', { kind: 'job', job: finished });
    const pending = api.chat.pendingAttachments.filter((a) => a.kind === 'research');
    assert.equal(pending.length, 1, JSON.stringify(api.chat.pendingAttachments.map((a) => a.path)));
    assert.match(pending[0]?.path ?? '', /Vector databases/);
    // The same conversation, on a model that answers in text.
    await api.chat.handle({ type: 'selectModel', model: PLAIN_MODEL });
    // The report names tools ("deep research"), which the simulated model would call: no tools for this reply.
    await setSetting('chat.workspaceTools', false);
    try {
      await api.chat.handle({ type: 'send', text: '@research summarize it' });
    } finally {
      await setSetting('chat.workspaceTools', undefined);
      // A pick is remembered with the model setting it was made under, which later suites set to
      // this same tool-args model: pick it back, so their new chats do not start on the plain one.
      await api.chat.handle({ type: 'selectModel', model: TOOL_MODEL });
    }
    const user = api.chat.current.turns.filter((t): t is UserTurn => t.role === 'user').at(-1);
    const report = user?.attachments.find((a) => a.kind === 'research');
    assert.ok(report, JSON.stringify(user?.attachments));
    assert.match(report.path, /Vector databases/);
    assert.ok(report.text.length > 100, 'the report text is attached');
    assert.equal(lastTurn().status, 'done');
    assert.match(JSON.stringify(requests('/api/v1/chat/completions').at(-1)?.body), /Research report Vector databases/);
  });

  it('offers neither tool in an untrusted workspace', async () => {
    const trust = Object.getOwnPropertyDescriptor(vscode.workspace, 'isTrusted');
    Object.defineProperty(vscode.workspace, 'isTrusted', { configurable: true, get: () => false });
    try {
      await newConversationWith(api, posted, PLAIN_MODEL);
      gateway.clearRequests();
      await api.chat.handle({ type: 'send', text: 'hello there' });
      const sent = requests('/api/v1/chat/completions').at(-1)?.body as { tools?: { function?: { name?: string } }[] };
      const names = (sent.tools ?? []).map((t) => t.function?.name);
      assert.ok(!names.includes('search_codebase') && !names.includes('deep_research'), JSON.stringify(names));
      posted.length = 0;
      await api.chat.handle({ type: 'send', text: '@codebase where is the cache?' });
      assert.match(notices().at(-1)?.text ?? '', /Restricted Mode/);
      assert.equal(requests('/api/v1/embeddings').length, 0);
    } finally {
      if (trust) Object.defineProperty(vscode.workspace, 'isTrusted', trust);
    }
  });
});
