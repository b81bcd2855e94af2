// What the chat's workspace tools, @ file mentions and semantic indexing may see of the folder,
// in the real extension host against the local gateway: a link out of the workspace, a .env file,
// node_modules, a .gitignored file (nested .gitignore, negation), a files.exclude'd file and a file
// far larger than the read cap. The local gateway's model calls the tool its prompt names, with the
// prompt as the argument: ".env.read_file" reads the file of that name.
import * as assert from 'node:assert/strict';
import {
  closeSync,
  ftruncateSync,
  mkdtempSync,
  openSync,
  promises as fsPromises,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { IndexRun } from '../../src/extension/search/searchIndexService';
import type { AssistantTurn, ToolStep } from '../../src/shared/chatModel';
import type { HostToChatMessage } from '../../src/shared/chatProtocol';
import type { TestApi } from '../../src/extension/testApi';
import type { LocalGateway } from '../gateway/index';
import {
  activateExtension,
  clearKeyThroughCommand,
  connectedGateway,
  recordNotifications,
  setSetting,
  setSettingAndWait,
  waitFor,
} from './extensionHost';
import { lastToolResult as lastToolResultOf } from './chatDriver';

type FunctionStep = Extract<ToolStep, { kind: 'function' }>;
const NEEDLE = 'NEEDLE-4471 search_files';
/** Over 2 GiB: a whole read of it could not even be held in one buffer. */
const HUGE_BYTES = 2.5 * 1024 ** 3;

describe('workspace tools, @ mentions and indexing see only what the user would share', function () {
  this.timeout(90_000);
  let api: TestApi;
  let gateway: LocalGateway;
  let root: string;
  let outside: string;
  let posted: HostToChatMessage[];
  let notes: ReturnType<typeof recordNotifications>;

  const lastReply = (): AssistantTurn => api.chat.current.turns.at(-1) as AssistantTurn;
  const stepOf = (turn: AssistantTurn): FunctionStep => {
    const step = turn.toolSteps[0];
    assert.equal(step?.kind, 'function', JSON.stringify(turn.toolSteps));
    return step;
  };
  /** Sends `prompt`; approves the tool call with `decision` when asked; returns the finished step. */
  async function callTool(
    prompt: string,
    decision: 'once' | 'always' | 'deny' = 'once',
  ): Promise<{ step: FunctionStep; asked: FunctionStep | undefined }> {
    posted.length = 0;
    const sending = api.chat.handle({ type: 'send', text: prompt });
    // The step's first state: waiting for approval, or running (allowed for this conversation).
    const first = await waitFor(
      () => posted.flatMap((m) => (m.type === 'toolStep' && m.step.kind === 'function' ? [m.step] : []))[0],
      (step) => step !== undefined,
      `the tool call for ${prompt}`,
    );
    const asked = first?.status === 'awaitingApproval' ? first : undefined;
    if (asked) await api.chat.handle({ type: 'approveTool', callId: asked.id, decision });
    await sending;
    return { step: stepOf(lastReply()), asked };
  }

  /** What the last request to the model carried as the last tool result (the whole of it). */
  const lastToolResult = (): string => lastToolResultOf(gateway);

  before(async () => {
    api = await activateExtension();
    root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? assert.fail('the suite opens a folder');
    gateway = await connectedGateway(api);
    await setSetting('defaultModels.chat', 'sim-openai/gpt-sim-mini');
    await vscode.workspace
      .getConfiguration('files')
      .update('exclude', { '**/.git': true, 'hidden/**': true }, vscode.ConfigurationTarget.Workspace);
    // A folder outside the workspace, reached through a link made now.
    outside = mkdtempSync(join(tmpdir(), 'ui-outside-'));
    writeFileSync(join(outside, 'read_file.md'), `OUTSIDE-SECRET-5512 ${NEEDLE}\n`);
    symlinkSync(outside, join(root, 'escape'));
    posted = [];
    notes = recordNotifications();
  });

  beforeEach(async () => {
    // A chat view that opened meanwhile took the controller's messages: take them back.
    api.chat.attach((message) => posted.push(message));
    await api.chat.handle({ type: 'newConversation' });
  });

  after(async () => {
    notes?.restore();
    rmSync(join(root, 'escape'), { force: true });
    rmSync(outside, { recursive: true, force: true });
    await vscode.workspace.getConfiguration('files').update('exclude', undefined, vscode.ConfigurationTarget.Workspace);
    await vscode.commands.executeCommand('unifiedInference.search.clearIndex');
    for (const key of ['defaultModels.chat', 'defaultModels.embedding', 'search.include'])
      await setSetting(key, undefined);
    await clearKeyThroughCommand(true);
    await setSetting('baseUrl', undefined);
    await gateway?.stop();
  });

  it('refuses a read through a link that leads out of the workspace, as a tool error the model reads', async () => {
    const { step } = await callTool('escape/read_file.md');
    assert.equal(step.status, 'failed');
    assert.match(step.result ?? '', /outside the workspace folders/);
    assert.ok(!(step.result ?? '').includes('OUTSIDE-SECRET'), 'nothing of the file was read');
    assert.ok(!(step.result ?? '').includes(outside), 'and where the link leads is not told');
    assert.equal(lastReply().status, 'done', 'the reply went on');
  });

  it('offers no workspace tools in an untrusted workspace, and tells the model why', async () => {
    // The harness runs with workspace trust off (everything trusted): Restricted Mode is simulated
    // on the API object this extension host shares with the extension.
    const trust = Object.getOwnPropertyDescriptor(vscode.workspace, 'isTrusted');
    Object.defineProperty(vscode.workspace, 'isTrusted', { configurable: true, get: () => false });
    try {
      gateway.clearRequests();
      const sending = api.chat.handle({ type: 'send', text: 'read_file.md' });
      const reply = await waitFor(
        () => api.chat.current.turns.at(-1),
        (t) => t?.role === 'assistant' && (t.status !== 'streaming' || t.toolSteps.length > 0),
        'the reply or a tool call',
      );
      if (reply?.role === 'assistant' && reply.toolSteps.length) await api.chat.handle({ type: 'stop' }); // it would wait for an approval
      await sending;
      assert.deepEqual(lastReply().toolSteps, [], 'no tool was called');
      const sent = gateway.requests.find((r) => r.path === '/api/v1/chat/completions')?.body as {
        tools?: unknown[];
        messages: Array<{ role: string; content?: unknown }>;
      };
      assert.equal(sent.tools, undefined, 'no tools were offered');
      assert.match(String(sent.messages.find((m) => m.role === 'system')?.content ?? ''), /not trusted/);
    } finally {
      if (trust) Object.defineProperty(vscode.workspace, 'isTrusted', trust);
    }
    assert.equal(vscode.workspace.isTrusted, true);
  });

  it('asks before reading .env, naming it, even after "allow for this conversation" of that tool', async () => {
    const granted = await callTool('read_file.md', 'always');
    assert.equal(granted.step.status, 'done');
    const plain = await callTool('read_file.md');
    assert.equal(plain.asked, undefined, 'the grant covers an ordinary file');
    const secret = await callTool('.env.read_file', 'always');
    assert.ok(secret.asked, 'a sensitive file is asked about');
    assert.deepEqual(secret.asked.sensitive, ['.env.read_file'], 'the question names it');
    assert.equal(secret.step.status, 'done', '"always" on it allowed this one call');
    const again = await callTool('.env.read_file', 'deny');
    assert.ok(again.asked, 'and it asks again');
    assert.deepEqual(again.asked.sensitive, ['.env.read_file']);
    assert.equal(again.step.status, 'denied');
    assert.match(lastToolResult(), /did not allow this tool call/, 'the denied read sent nothing');
  });

  it("lists and searches without node_modules, .gitignored, files.exclude'd, sensitive or linked-out files", async () => {
    const listed = await callTool('{**/*,list_files}');
    assert.equal(listed.step.status, 'done');
    const paths = (listed.step.result ?? '').split('\n');
    for (const present of ['src/needle.ts', 'notes/keep.local.md', 'read_file.md'])
      assert.ok(paths.includes(present), `${present} listed: ${listed.step.result}`);
    for (const absent of [
      'node_modules/dep/index.js',
      'notes/private.local.md',
      'hidden/by-setting.txt',
      '.env.read_file',
      'escape/read_file.md',
    ])
      assert.ok(!paths.includes(absent), `${absent} not listed`);
    assert.match(listed.step.result ?? '', /\[1 sensitive file .* left out\]/);

    const refused = await callTool('{[z-a],list_files}');
    assert.equal(refused.step.status, 'failed', 'a pattern it cannot read is an error the model reads, not "no files"');
    assert.match(refused.step.result ?? '', /cannot be used/);

    const searched = await callTool(NEEDLE);
    assert.equal(searched.step.status, 'done');
    const found = (searched.step.result ?? '')
      .split('\n')
      .filter((line) => line.includes(NEEDLE))
      .map((line) => line.slice(0, line.indexOf(':')));
    assert.deepEqual(found.sort(), ['notes/keep.local.md', 'src/needle.ts'], searched.step.result);
    assert.ok(!(searched.step.result ?? '').includes('ENVSECRET'), 'nothing of the .env file');
  });

  it('reads a file far over the cap only up to it, reporting its size from stat', async () => {
    const path = join(root, 'huge.read_file.txt');
    const fd = openSync(path, 'w');
    try {
      writeSync(fd, 'HEAD-OF-HUGE-FILE\n'.repeat(20_000)); // 360 KB of text, then a hole
      ftruncateSync(fd, HUGE_BYTES);
      writeSync(fd, 'TAIL-MARKER-9090', HUGE_BYTES - 100);
    } finally {
      closeSync(fd);
    }
    try {
      const { step } = await callTool('huge.read_file.txt');
      assert.equal(step.status, 'done', step.result);
      const result = lastToolResult();
      assert.match(result, new RegExp(`\\[showing the first 200000 of ${HUGE_BYTES} bytes`));
      assert.ok(result.startsWith('HEAD-OF-HUGE-FILE'));
      assert.ok(!result.includes('TAIL-MARKER'), 'the tail was never read');
      assert.ok(result.length < 210_000, 'only the cap went to the model');
    } finally {
      unlinkSync(path);
    }
  });

  it('@ mentions go through the same gate: no gitignored, sensitive or linked-out file is suggested or attached', async () => {
    posted.length = 0;
    for (const [requestId, query] of [
      [1, 'local'],
      [2, 'read_file'],
      [3, 'index.js'],
    ] as const)
      await api.chat.handle({ type: 'suggestFiles', requestId, query });
    const suggested = posted.flatMap((m) => (m.type === 'fileSuggestions' ? m.paths : []));
    assert.ok(
      suggested.includes('notes/keep.local.md') && suggested.includes('read_file.md'),
      JSON.stringify(suggested),
    );
    for (const absent of [
      'notes/private.local.md',
      '.env.read_file',
      'escape/read_file.md',
      'node_modules/dep/index.js',
    ])
      assert.ok(!suggested.includes(absent), `${absent} not suggested`);
    const refused = await api.chat
      .handle({ type: 'attachFile', path: 'notes/private.local.md' })
      .then(() => notes.shown.at(-1)?.message ?? '');
    assert.match(refused, /excluded by \.gitignore/);
  });

  it('@ mentions do not walk an untrusted workspace: no suggestion, no folder read', async () => {
    // The test before filled the suggestion index's file list: a setting it follows forgets it, so
    // a walk would have to read the folders again (and the count below could catch it).
    await setSettingAndWait('sensitiveFiles', ['**/*.never-in-this-workspace']);
    const trust = Object.getOwnPropertyDescriptor(vscode.workspace, 'isTrusted');
    // The extension host shares node:fs with this test: count the folder reads a walk would make.
    const promises = fsPromises as unknown as { readdir: (...args: unknown[]) => Promise<unknown> };
    const readdir = promises.readdir;
    let reads = 0;
    promises.readdir = (...args) => {
      reads++;
      return readdir.apply(fsPromises, args);
    };
    Object.defineProperty(vscode.workspace, 'isTrusted', { configurable: true, get: () => false });
    try {
      posted.length = 0;
      await api.chat.handle({ type: 'suggestFiles', requestId: 21, query: 'read_file' });
      assert.deepEqual(
        posted.flatMap((m) => (m.type === 'fileSuggestions' ? [m.paths] : [])),
        [[]],
        'answered, with nothing',
      );
      assert.equal(reads, 0, 'no folder was read');
    } finally {
      promises.readdir = readdir;
      if (trust) Object.defineProperty(vscode.workspace, 'isTrusted', trust);
      await setSettingAndWait('sensitiveFiles', undefined);
    }
    posted.length = 0;
    await api.chat.handle({ type: 'suggestFiles', requestId: 22, query: 'read_file' });
    assert.ok(
      posted.some((m) => m.type === 'fileSuggestions' && m.paths.includes('read_file.md')),
      'trusted again, it suggests',
    );
  });

  it('semantic indexing goes through the same gate: no gitignored, sensitive or linked-out file is embedded', async () => {
    await setSetting('defaultModels.embedding', 'sim-openai/text-embedding-sim-small');
    await setSetting('search.include', '{notes/**,.env*,escape/**,node_modules/**,hidden/**}');
    await vscode.commands.executeCommand('unifiedInference.search.clearIndex');
    gateway.clearRequests();
    const run = await vscode.commands.executeCommand<IndexRun | undefined>('unifiedInference.search.index');
    const indexed = (run?.report.embeddedFiles ?? [])
      .map((file) => vscode.workspace.asRelativePath(vscode.Uri.parse(file)))
      .sort();
    assert.deepEqual(indexed, ['notes/.gitignore', 'notes/keep.local.md']);
    const uploaded = JSON.stringify(gateway.requests.filter((r) => r.path === '/api/v1/embeddings').map((r) => r.body));
    for (const secret of ['ENVSECRET', 'OUTSIDE-SECRET', 'Gitignored'])
      assert.ok(!uploaded.includes(secret), `${secret} never went to the gateway`);
  });
});
