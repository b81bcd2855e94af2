import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { AssistantTurn, ReplyCost } from '../../src/shared/chatModel';
import type { HostToChatMessage } from '../../src/shared/chatProtocol';
import type { TestApi } from '../../src/extension/testApi';
import type { LocalGateway } from '../gateway/index';
import {
  activateExtension,
  clearKeyThroughCommand,
  connectedGateway,
  recordNotifications,
  replace,
  setSetting,
  waitFor,
} from './extensionHost';
import { lastAssistantTurn, newConversationWith } from './chatDriver';
import { startPrefixProxy } from '../harness/prefixProxy';

// The chat panel's host side in the real extension host: the sidebar chat's controller driven with
// the messages its webview sends, against the local gateway; what it posts back is recorded.
describe('chat panel host against the local gateway', function () {
  this.timeout(90_000);
  let api: TestApi;
  let gateway: LocalGateway;
  let posted: HostToChatMessage[];
  let notes: ReturnType<typeof recordNotifications>;

  const lastReply = (): AssistantTurn => lastAssistantTurn(api);

  const useModel = (model: string): Promise<void> => newConversationWith(api, posted, model);

  before(async () => {
    api = await activateExtension();
    gateway = await connectedGateway(api);
    posted = [];
    api.chat.attach((message) => posted.push(message));
    notes = recordNotifications();
  });

  after(async () => {
    notes?.restore();
    await setSetting('defaultModels.chat', undefined);
    await clearKeyThroughCommand(true);
    await setSetting('baseUrl', undefined);
    await gateway?.stop();
  });

  it('answers a message sent as the last reply ends (while it still saves) instead of dropping it', async () => {
    await useModel('sim-openai/gpt-sim-mini');
    // What the webview does: Send comes back with `replyEnded`, and the user sends at once.
    let second: Promise<void> | undefined;
    api.chat.attach((message) => {
      posted.push(message);
      if (message.type === 'replyEnded' && !second)
        second = api.chat.handle({ type: 'send', text: 'And the second question?' });
    });
    try {
      await api.chat.handle({ type: 'send', text: 'The first question.' });
      assert.ok(second, 'the second message was sent as the first reply ended');
      await second;
    } finally {
      api.chat.attach((message) => posted.push(message));
    }
    const turns = api.chat.current.turns;
    assert.deepEqual(
      turns.map((turn) => turn.role),
      ['user', 'assistant', 'user', 'assistant'],
    );
    assert.equal(turns[2]?.role === 'user' ? turns[2].text : '', 'And the second question?');
    assert.equal(lastReply().status, 'done');
  });

  it("shows a reply's cost with its source: the catalog's pricing at once, else the balance once the gateway settled", async () => {
    const costs = (id: string): ReplyCost[] =>
      posted.flatMap((m) => (m.type === 'replyCost' && m.id === id ? [m.cost] : []));
    // A priced model: usage x pricing, which is what the gateway charges.
    await useModel('sim-openai/gpt-sim-mini');
    posted.length = 0;
    let before = gateway.credits();
    await api.chat.handle({ type: 'send', text: 'What does a token cost?' });
    const priced = lastReply();
    const [fromPricing] = await waitFor(
      () => costs(priced.id),
      (list) => list.length > 0,
      'the priced cost',
    );
    assert.equal(fromPricing?.source, 'pricing');
    assert.ok((fromPricing?.credits ?? 0) > 0);
    assert.ok(
      Math.abs(before - gateway.credits() - (fromPricing?.credits ?? 0)) < 2e-6,
      `pricing ${fromPricing?.credits} = balance change ${before - gateway.credits()}`,
    );
    // No pricing listed, and the gateway settles two seconds after the reply: "pending", then the balance change.
    await useModel('sim-anthropic/sonnet-sim-4.5::settle-ms=2000');
    posted.length = 0;
    before = gateway.credits();
    await api.chat.handle({ type: 'send', text: 'And without a price list?' });
    const late = lastReply();
    assert.equal(late.status, 'done');
    const settled = await waitFor(
      () => costs(late.id),
      (list) => list.some((cost) => cost.source === 'balance'),
      'the settled cost',
      30_000,
    );
    assert.equal(settled[0]?.state, 'pending', 'said "pending" while the balance had not moved');
    const final = settled.at(-1);
    assert.equal(final?.source, 'balance');
    assert.equal(final?.estimate, false);
    assert.ok(
      (final?.credits ?? 0) > 0 && Math.abs((final?.credits ?? 0) - (before - gateway.credits())) < 2e-6,
      `${final?.credits} vs ${before - gateway.credits()}`,
    );
    assert.deepEqual(lastReply().cost, final, 'the settled cost is saved with the reply, "pending" never is');
  });

  it('streams a reply as deltas, then saves the conversation with usage and cost', async () => {
    await useModel('sim-openai/gpt-sim-mini');
    posted.length = 0;
    await api.chat.handle({ type: 'send', text: 'What is a stream?' });
    const reply = lastReply();
    assert.equal(reply.status, 'done');
    const deltas = posted.filter(
      (m): m is Extract<HostToChatMessage, { type: 'replyDelta' }> => m.type === 'replyDelta' && m.id === reply.id,
    );
    assert.ok(deltas.length >= 1);
    assert.equal(deltas.map((d) => d.content ?? '').join(''), reply.content, 'the webview got every piece, in order');
    assert.ok(!posted.some((m) => m.type === 'conversation'), 'no whole conversation is sent while streaming');
    assert.ok(reply.usage && reply.usage.completionTokens > 0);
    await waitFor(
      () => posted.find((m) => m.type === 'replyCost'),
      (m) => m !== undefined,
      'the reply cost',
    );
    assert.ok((lastReply().cost?.credits ?? 0) > 0, 'the quota fell by what the reply cost');
    const history = await waitFor(
      async () => {
        posted.length = 0;
        await api.chat.handle({ type: 'searchHistory', query: 'stream' });
        return posted.find((m): m is Extract<HostToChatMessage, { type: 'history' }> => m.type === 'history');
      },
      (h) => (h?.conversations.length ?? 0) > 0,
      'the saved conversation',
    );
    assert.equal(history?.conversations[0]?.title, 'What is a stream?');
  });

  it('stops a slow reply at once and keeps what arrived, then regenerates it', async () => {
    await useModel('sim-openai/gpt-sim-mini::delay-chunks=150');
    const sending = api.chat.handle({ type: 'send', text: 'Tell me slowly' });
    await waitFor(
      () => api.chat.current.turns.at(-1),
      (t) => t?.role === 'assistant' && t.content.length > 0,
      'the first words',
    );
    const started = Date.now();
    await api.chat.handle({ type: 'stop' });
    await sending;
    assert.ok(Date.now() - started < 2_000, 'stopped promptly');
    const stopped = lastReply();
    assert.equal(stopped.status, 'stopped');
    assert.ok(stopped.content.length > 0);
    const aborted = gateway.requests.filter((r) => r.path === '/api/v1/chat/completions').at(-1);
    assert.equal(await aborted?.closed, 'aborted', 'the gateway saw the connection close');
    api.chat.current.model = 'sim-openai/gpt-sim-mini'; // the same conversation, a fast model
    await api.chat.handle({ type: 'regenerate' });
    assert.equal(api.chat.current.turns.length, 2, 'the stopped reply was replaced');
    assert.equal(lastReply().status, 'done');
  });

  it('asks before running a workspace tool and sends the result back', async () => {
    await useModel('sim-openai/gpt-sim-mini');
    posted.length = 0;
    const sending = api.chat.handle({ type: 'send', text: 'read_file.md' });
    const asked = await waitFor(
      () =>
        posted.find(
          (m): m is Extract<HostToChatMessage, { type: 'toolStep' }> =>
            m.type === 'toolStep' && m.step.kind === 'function' && m.step.status === 'awaitingApproval',
        ),
      (m) => m !== undefined,
      'the approval question',
    );
    assert.equal(asked?.step.kind === 'function' ? asked.step.name : '', 'read_file');
    await api.chat.handle({
      type: 'approveTool',
      callId: asked?.step.kind === 'function' ? asked.step.id : '',
      decision: 'always',
    });
    await sending;
    const reply = lastReply();
    const step = reply.toolSteps[0];
    assert.equal(step?.kind === 'function' ? step.status : '', 'done');
    assert.match(step?.kind === 'function' ? (step.result ?? '') : '', /PAPAYA/, 'the tool read the file');
    assert.match(reply.content, /PAPAYA/, 'the model answered using the result');
    // "Allow for this conversation": the next call of that tool runs without asking.
    posted.length = 0;
    await api.chat.handle({ type: 'send', text: 'read_file.md' });
    assert.ok(
      !posted.some((m) => m.type === 'toolStep' && m.step.kind === 'function' && m.step.status === 'awaitingApproval'),
    );
    const again = lastReply().toolSteps[0];
    assert.equal(again?.kind === 'function' ? again.status : '', 'done');
  });

  it('refuses paths outside the workspace in the read tool', async () => {
    await useModel('sim-openai/gpt-sim-mini');
    const sending = api.chat.handle({ type: 'send', text: '../../etc/passwd read_file' });
    const asked = await waitFor(
      () => api.chat.current.turns.at(-1),
      (t) => t?.role === 'assistant' && t.toolSteps.length > 0,
      'the tool call',
    );
    const step = (asked as AssistantTurn).toolSteps[0];
    await api.chat.handle({ type: 'approveTool', callId: step?.kind === 'function' ? step.id : '', decision: 'once' });
    await sending;
    const done = lastReply().toolSteps[0];
    assert.equal(done?.kind === 'function' ? done.status : '', 'failed');
    assert.match(done?.kind === 'function' ? (done.result ?? '') : '', /outside the workspace folders/);
  });

  for (const [name, model, kind, action] of [
    ['a refused key', 'sim-openai/gpt-sim-mini::status=401', 'auth', 'setApiKey'],
    ['no credits', 'sim-openai/gpt-sim-mini::status=429;code=insufficient_quota', 'outOfCredits', 'refreshCredits'],
    ['an interrupted stream', 'sim-openai/gpt-sim-mini::cut-after=700', 'interrupted', 'retry'],
    [
      'rate limiting that outlasts the retries',
      'sim-openai/gpt-sim-mini::status=429;retry-after=1',
      'rateLimited',
      'retry',
    ],
  ] as const) {
    it(`ends the reply with ${name}, offering the fix`, async () => {
      await useModel(model);
      await api.chat.handle({ type: 'send', text: `Trigger ${name}` });
      const reply = lastReply();
      assert.equal(reply.status, 'error');
      assert.equal(reply.error?.kind, kind);
      assert.ok(reply.error?.actions.includes(action));
      assert.ok(!reply.error?.message.includes(gateway.apiKey), 'the key never appears in an error');
    });
  }

  it('ends a reply whose stream finishes with an error reason (a translating proxy) as failed, text kept, Retry offered', async () => {
    await useModel('sim-openai/gpt-sim-mini::finish-error=overloaded_error');
    await api.chat.handle({ type: 'send', text: 'Through a translating proxy' });
    const reply = lastReply();
    assert.equal(reply.status, 'error');
    assert.ok(reply.content.length > 0, 'the text that arrived is kept');
    assert.ok(reply.error?.actions.includes('retry'), JSON.stringify(reply.error));
    assert.match(reply.error?.message ?? '', /overloaded/);
  });

  it("works through a proxy serving the API under /v1, and with the gateway's /api/v1 as the address", async () => {
    const proxy = await startPrefixProxy(gateway.url);
    try {
      for (const base of [`${proxy.url}/v1`, `${proxy.url}/v1/`, `${gateway.url}/api/v1`]) {
        await setSetting('baseUrl', base);
        const expected = base.replace(/\/$/, '');
        await waitFor(
          () => api.connection.setup,
          (setup) => setup.baseUrl === base && setup.client?.baseUrl === expected,
          `the client for ${base}`,
        );
        const report = await vscode.commands.executeCommand<{ ok: boolean; modelCount?: number }>(
          'unifiedInference.testConnection',
        );
        assert.equal(report.ok, true, `${base}: ${JSON.stringify(report)}`);
        assert.ok((report.modelCount ?? 0) > 0, base);
        await useModel('sim-openai/gpt-sim-mini');
        await api.chat.handle({ type: 'send', text: `Hello through ${base}` });
        const reply = lastReply();
        assert.equal(reply.status, 'done', JSON.stringify(reply.error));
        assert.match(reply.content, /Local simulation/);
      }
      assert.ok(
        proxy.paths.some((p) => p.startsWith('/v1/chat/completions')),
        proxy.paths.join(', '),
      );
      assert.ok(
        proxy.paths.some((p) => p.startsWith('/v1/models')),
        proxy.paths.join(', '),
      );
      assert.deepEqual(
        proxy.paths.filter((p) => !p.startsWith('/v1/') || p.includes('/api/v1')),
        [],
        'never /api/v1 appended to the proxy',
      );
    } finally {
      await setSetting('baseUrl', gateway.url);
      await waitFor(
        () => api.connection.setup.client?.baseUrl,
        (url) => url === `${gateway.url}/api/v1`,
        'the client for the gateway again',
      );
      await proxy.stop();
    }
  });

  it('shows a tool server call with no arguments as {} and one with arguments as them, when the inputs stream as deltas (/messages)', async () => {
    await setSetting('chat.mcpServers', ['https://search.example/mcp', 'https://clock.example/mcp']);
    try {
      await useModel('sim-anthropic/claude-sim-sonnet::tool-input-deltas;null-counts');
      await api.chat.handle({ type: 'send', text: 'Look up the weather in Paris' });
      const reply = lastReply();
      assert.equal(reply.status, 'done', JSON.stringify(reply.error));
      const steps = reply.toolSteps.filter((s) => s.kind === 'server');
      assert.equal(steps.length, 2, JSON.stringify(reply.toolSteps));
      const [withArgs, noArgs] = steps;
      assert.deepEqual(JSON.parse(withArgs?.kind === 'server' ? (withArgs.arguments ?? '') : ''), {
        query: 'Look up the weather in Paris',
      });
      assert.equal(noArgs?.kind === 'server' ? noArgs.arguments : undefined, '{}');
      // null-counts: the closing input_tokens null keeps message_start's count.
      assert.ok((reply.usage?.promptTokens ?? 0) > 0, JSON.stringify(reply.usage));
    } finally {
      await setSetting('chat.mcpServers', undefined);
    }
  });

  it('keeps the prompt count when a proxy closes the chat stream with prompt_tokens null', async () => {
    await useModel('sim-openai/gpt-sim-mini::null-counts');
    await api.chat.handle({ type: 'send', text: 'Count my tokens' });
    const reply = lastReply();
    assert.equal(reply.status, 'done', JSON.stringify(reply.error));
    assert.ok((reply.usage?.promptTokens ?? 0) > 0, JSON.stringify(reply.usage));
    assert.ok((reply.usage?.completionTokens ?? 0) > 0, JSON.stringify(reply.usage));
  });

  it('shows a whole JSON answer to its stream request as the reply, and names a portal page in place of the answer', async () => {
    await useModel('sim-openai/gpt-sim-mini::whole-json');
    posted.length = 0;
    await api.chat.handle({ type: 'send', text: 'Answer without streaming' });
    const reply = lastReply();
    assert.equal(reply.status, 'done');
    assert.match(reply.content, /Local simulation/);
    const deltas = posted.filter(
      (m): m is Extract<HostToChatMessage, { type: 'replyDelta' }> => m.type === 'replyDelta' && m.id === reply.id,
    );
    assert.equal(deltas.map((d) => d.content ?? '').join(''), reply.content, 'the webview got the text');
    assert.ok(reply.usage && reply.usage.completionTokens > 0);
    await useModel('sim-openai/gpt-sim-mini::html-200');
    await api.chat.handle({ type: 'send', text: 'Behind a captive portal' });
    const failed = lastReply();
    assert.equal(failed.status, 'error');
    assert.equal(failed.error?.kind, 'unreachable');
    assert.match(failed.error?.message ?? '', /text\/html, "Hotel Wi-Fi - Sign in to continue"/);
    assert.match(failed.error?.message ?? '', /check your network\/proxy or the gateway address/);
    assert.ok(failed.error?.actions.includes('openSettings'));
  });

  it('edits a sent message and resends from it', async () => {
    await useModel('sim-openai/gpt-sim-mini');
    await api.chat.handle({ type: 'send', text: 'first version' });
    const first = api.chat.current.turns[0];
    await api.chat.handle({ type: 'editAndResend', turnId: first?.id ?? '', text: 'second version' });
    const turns = api.chat.current.turns;
    assert.equal(turns.length, 2);
    assert.equal(turns[0]?.role === 'user' ? turns[0].text : '', 'second version');
    assert.equal(lastReply().status, 'done');
  });

  it('reopens a stored conversation by id', async () => {
    await useModel('sim-openai/gpt-sim-mini');
    await api.chat.handle({ type: 'send', text: 'remember me' });
    const id = api.chat.current.id;
    await api.chat.handle({ type: 'newConversation' });
    assert.equal(api.chat.current.turns.length, 0);
    await api.chat.handle({ type: 'openConversation', id });
    assert.equal(api.chat.current.id, id);
    assert.equal(api.chat.current.turns[0]?.role === 'user' ? api.chat.current.turns[0].text : '', 'remember me');
  });
  it('"Ask about Selection" attaches the editor selection with its lines and fills the box', async () => {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    assert.ok(folder, 'the test workspace is open');
    const editor = await vscode.window.showTextDocument(vscode.Uri.joinPath(folder, 'src', 'hello.ts'));
    editor.selection = new vscode.Selection(0, 0, 0, 12);
    posted.length = 0;
    await vscode.commands.executeCommand('unifiedInference.chat.askAboutSelection');
    api.chat.attach((message) => posted.push(message));
    const attached = await waitFor(
      () => api.chat.pendingAttachments,
      (list) => list.length > 0,
      'the attachment',
    );
    assert.equal(attached[0]?.kind, 'selection');
    assert.equal(attached[0]?.path, 'src/hello.ts');
    assert.equal(attached[0]?.startLine, 1);
    assert.equal(attached[0]?.text, 'export const');
    await api.chat.handle({ type: 'removeAttachment', id: attached[0]?.id ?? '' });
    assert.equal(api.chat.pendingAttachments.length, 0);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
  it('renames, exports to markdown (Open in the chat), and deletes a conversation with Undo in the chat', async () => {
    await useModel('sim-openai/gpt-sim-mini');
    await api.chat.handle({ type: 'send', text: 'keep this one' });
    const id = api.chat.current.id;
    const restoreInput = replace(vscode.window, 'showInputBox', async () => 'Renamed talk');
    try {
      await api.chat.handle({ type: 'renameConversation', id });
    } finally {
      restoreInput();
    }
    assert.equal(api.chat.current.title, 'Renamed talk');
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    assert.ok(folder);
    const target = vscode.Uri.joinPath(folder, 'exported-talk.md');
    const restoreSave = replace(vscode.window, 'showSaveDialog', async () => target);
    const notice = (): Extract<HostToChatMessage, { type: 'notice' }>['notice'] | undefined =>
      posted.flatMap((m) => (m.type === 'notice' ? [m.notice] : [])).at(-1);
    try {
      posted.length = 0;
      await api.chat.handle({ type: 'exportConversation', id });
    } finally {
      restoreSave();
    }
    const markdown = new TextDecoder().decode(await vscode.workspace.fs.readFile(target));
    assert.match(markdown, /^# Renamed talk/m);
    assert.match(markdown, /keep this one/);
    // The answer is in the chat, where Export was pressed, and its Open opens the file.
    assert.deepEqual(notice(), {
      id: notice()?.id,
      text: 'Exported to exported-talk.md.',
      severity: 'info',
      action: 'Open',
    });
    await api.chat.handle({ type: 'noticeAction', id: notice()?.id ?? 0 });
    await waitFor(
      () => vscode.window.activeTextEditor?.document.uri.toString(),
      (shown) => shown === target.toString(),
      'the exported file in an editor',
    );
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.workspace.fs.delete(target);
    // Delete, then Undo in the chat's notice.
    posted.length = 0;
    await api.chat.handle({ type: 'deleteConversation', id });
    assert.notEqual(api.chat.current.id, id, 'the deleted conversation was closed');
    const deleted = notice();
    assert.equal(deleted?.text, 'Deleted "Renamed talk".');
    assert.equal(deleted?.action, 'Undo');
    assert.ok(
      !notes.shown.some(({ message }) => message.startsWith('Deleted') || message.startsWith('Exported')),
      'no toast in a corner for what the chat answered in place',
    );
    await api.chat.handle({ type: 'noticeAction', id: deleted?.id ?? 0 });
    posted.length = 0;
    await api.chat.handle({ type: 'searchHistory', query: 'keep this one' });
    const listed = posted.find((m): m is Extract<HostToChatMessage, { type: 'history' }> => m.type === 'history');
    assert.deepEqual(
      listed?.conversations.map((c) => c.title),
      ['Renamed talk'],
      'Undo restored it',
    );
    // The History search stays in the controller: clear it for the suites after this one.
    await api.chat.handle({ type: 'searchHistory', query: '' });
  });
  it('answers Insert at Cursor with no editor open in the chat, saying what to do (the Output panel is no editor to type into)', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    // The log in the Output panel is a visible text editor too: the code must not go there.
    await vscode.commands.executeCommand('unifiedInference.showLog');
    await waitFor(
      () => vscode.window.visibleTextEditors.map((editor) => editor.document.uri.scheme),
      (schemes) => schemes.includes('output'),
      'the Output panel',
    );
    posted.length = 0;
    await api.chat.handle({ type: 'insertCode', code: 'const x = 1;' });
    assert.deepEqual(
      posted.flatMap((m) => (m.type === 'notice' ? [m.notice] : [])).map((n) => [n.text, n.severity, n.action]),
      [['No editor is open to insert the code into. Open a file, or use New File.', 'warning', undefined]],
    );
  });

  it('says the gateway is unreachable, naming the configured address, and keeps the message', async () => {
    await useModel('sim-openai/gpt-sim-mini');
    const closed = 'http://127.0.0.1:9';
    await setSetting('baseUrl', closed);
    await waitFor(
      () => api.connection.setup.baseUrl,
      (url) => url === closed,
      'the new address',
    );
    try {
      await api.chat.handle({ type: 'send', text: 'anyone there?' });
      const reply = lastReply();
      assert.equal(reply.error?.kind, 'unreachable');
      assert.match(reply.error?.message ?? '', /127\.0\.0\.1:9/);
      assert.deepEqual(reply.error?.actions.slice(0, 2), ['retry', 'openSettings']);
      // Its Open Settings shows the setting the message names: the address, for a refused port.
      assert.equal(reply.error?.setting, 'unifiedInference.baseUrl');
      // Test Connection's words for the same failure, its next step included.
      const report = await vscode.commands.executeCommand<{
        diagnosis?: { kind: string; title: string; detail: string; nextStep: string };
      }>('unifiedInference.testConnection');
      const diagnosis = report.diagnosis;
      assert.ok(diagnosis?.kind === 'refused', JSON.stringify(report));
      assert.equal(reply.error?.message, `${diagnosis.title}. ${diagnosis.detail} ${diagnosis.nextStep}`);
      assert.equal(api.chat.current.turns[0]?.role === 'user' ? api.chat.current.turns[0].text : '', 'anyone there?');
    } finally {
      await setSetting('baseUrl', gateway.url);
      await waitFor(
        () => api.connection.setup.baseUrl,
        (url) => url === gateway.url,
        'the gateway address again',
      );
    }
    // Retry once the gateway is back: the same conversation goes on.
    await api.chat.handle({ type: 'errorAction', action: 'retry' });
    assert.equal(lastReply().status, 'done');
  });
});
