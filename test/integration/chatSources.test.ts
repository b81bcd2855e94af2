// Sources and server tool steps in the real extension host: the chat's controller driven as its
// webview drives it, against the local gateway's `web-search` shapes on both APIs (the API follows
// the model: sim-anthropic models answer through /messages). What is posted, saved, reopened from
// disk and exported.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { AssistantTurn, Conversation } from '../../src/shared/chatModel';
import type { HostToChatMessage } from '../../src/shared/chatProtocol';
import type { TestApi } from '../../src/extension/testApi';
import type { LocalGateway } from '../gateway/index';
import { activateExtension, disconnectGateway, connectedGateway, replace, setSetting } from './extensionHost';
import { lastAssistantTurn, newConversationWith } from './chatDriver';

const QUESTION = 'What is new in Rust';
const FOUND = [
  {
    url: 'https://search.sim.example/guide/what-is-new-in-rust',
    title: 'A guide to What is new in Rust (simulated result)',
  },
  {
    url: 'https://search.sim.example/faq/what-is-new-in-rust',
    title: 'What is new in Rust: questions and answers (simulated)',
  },
  { url: 'https://docs.sim.example/reference/what-is-new-in-rust' },
];

describe('chat sources and server tools against the local gateway', function () {
  this.timeout(90_000);
  let api: TestApi;
  let gateway: LocalGateway;
  let posted: HostToChatMessage[];

  before(async () => {
    api = await activateExtension();
    gateway = await connectedGateway(api);
    posted = [];
    api.chat.attach((message) => posted.push(message));
  });

  after(async () => {
    await setSetting('defaultModels.chat', undefined);
    await setSetting('chat.mcpServers', undefined);
    await disconnectGateway(gateway);
  });

  /** The conversation as the chat opens it from disk (another one opened first, so it is read again). */
  async function reopened(id: string): Promise<Conversation> {
    await api.chat.handle({ type: 'newConversation' });
    posted.length = 0;
    await api.chat.handle({ type: 'openConversation', id });
    const opened = posted.find(
      (m): m is Extract<HostToChatMessage, { type: 'conversation' }> => m.type === 'conversation',
    );
    assert.equal(opened?.conversation.id, id);
    return opened.conversation;
  }

  async function exported(id: string): Promise<string> {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    assert.ok(folder);
    const target = vscode.Uri.joinPath(folder, `sources-${id}.md`);
    const restore = replace(vscode.window, 'showSaveDialog', async () => target);
    try {
      await api.chat.handle({ type: 'exportConversation', id });
    } finally {
      restore();
    }
    const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(target));
    await vscode.workspace.fs.delete(target);
    return text;
  }

  for (const model of ['sim-openai/gpt-sim-mini', 'sim-anthropic/claude-sim-sonnet']) {
    const path = model.startsWith('sim-anthropic') ? '/messages' : '/chat/completions';
    it(`${path}: keeps the cited pages as the reply's sources, posts them as it ends, saves, reopens and exports them`, async () => {
      await newConversationWith(api, posted, `${model}::web-search`);
      posted.length = 0;
      await api.chat.handle({ type: 'send', text: QUESTION });
      const reply = lastAssistantTurn(api);
      assert.equal(reply.status, 'done', JSON.stringify(reply.error));
      assert.deepEqual(reply.sources, FOUND);
      const ended = posted.find(
        (m): m is Extract<HostToChatMessage, { type: 'replyEnded' }> => m.type === 'replyEnded',
      );
      assert.deepEqual(ended?.sources, FOUND);
      assert.ok(
        gateway.requests.some((r) => r.path === `/api/v1${path}`),
        `the reply went through ${path}`,
      );
      // A source link the webview hands over opens through VS Code, as reply links do.
      const opened: string[] = [];
      const restoreOpen = replace(vscode.env, 'openExternal', async (uri: vscode.Uri) => {
        opened.push(uri.toString(true));
        return true;
      });
      try {
        await api.chat.handle({ type: 'openLink', href: FOUND[0]?.url ?? '' });
      } finally {
        restoreOpen();
      }
      assert.deepEqual(opened, [FOUND[0]?.url]);
      const id = api.chat.current.id;
      const loaded = (await reopened(id)).turns.at(-1) as AssistantTurn;
      assert.deepEqual(loaded.sources, FOUND);
      const markdown = await exported(id);
      assert.ok(
        markdown.includes(
          `**Sources**\n\n1. [${FOUND[0]?.title}](<${FOUND[0]?.url}>)\n2. [${FOUND[1]?.title}](<${FOUND[1]?.url}>)\n3. [docs.sim.example](<${FOUND[2]?.url}>)`,
        ),
        markdown,
      );
    });
  }

  it('/messages: the web search is a server step with its real query and results, and the next turn is accepted', async () => {
    await newConversationWith(api, posted, 'sim-anthropic/claude-sim-sonnet::web-search');
    posted.length = 0;
    await api.chat.handle({ type: 'send', text: QUESTION });
    const reply = lastAssistantTurn(api);
    const [search] = reply.toolSteps;
    assert.ok(search?.kind === 'server', JSON.stringify(reply.toolSteps));
    assert.equal(search.name, 'web_search');
    assert.deepEqual(JSON.parse(search.arguments ?? ''), { query: QUESTION });
    assert.ok(search.result?.startsWith(`1. ${FOUND[0]?.title} — ${FOUND[0]?.url}\n`), search.result);
    const shown = posted.flatMap((m) => (m.type === 'toolStep' ? [m.step] : []));
    assert.deepEqual(shown, [search]);
    // The next turn replays the reply (text only) and the gateway accepts it.
    await api.chat.handle({ type: 'send', text: 'And the one before?' });
    const next = lastAssistantTurn(api);
    assert.equal(next.status, 'done', JSON.stringify(next.error));
    const sent = JSON.stringify(gateway.requests.filter((r) => r.path === '/api/v1/messages').at(-1)?.body);
    assert.ok(!sent.includes('server_tool_use') && !sent.includes('web_search_tool_result'), sent);
  });

  it('/messages: a tool server call that failed is a failed step with its arguments and the error text', async () => {
    await setSetting('chat.mcpServers', ['https://search.example/mcp']);
    try {
      await newConversationWith(api, posted, 'sim-anthropic/claude-sim-sonnet::mcp-error;tool-input-deltas');
      await api.chat.handle({ type: 'send', text: QUESTION });
      const reply = lastAssistantTurn(api);
      assert.equal(reply.status, 'done', JSON.stringify(reply.error));
      const [step] = reply.toolSteps;
      assert.ok(step?.kind === 'server', JSON.stringify(reply.toolSteps));
      assert.equal(step.server, 'https://search.example/mcp');
      assert.deepEqual(JSON.parse(step.arguments ?? ''), { query: QUESTION });
      assert.equal(step.failed, true);
      assert.match(step.result ?? '', /refused the call/);
      const loaded = (await reopened(api.chat.current.id)).turns.at(-1) as AssistantTurn;
      assert.deepEqual(loaded.toolSteps, reply.toolSteps);
    } finally {
      await setSetting('chat.mcpServers', undefined);
    }
  });

  it('chat completions: a hostile search keeps 50 http(s) sources with bounded titles', async () => {
    await newConversationWith(api, posted, 'sim-openai/gpt-sim-mini::web-search=hostile');
    await api.chat.handle({ type: 'send', text: QUESTION });
    const sources = lastAssistantTurn(api).sources ?? [];
    assert.equal(sources.length, 50);
    assert.ok(sources.every((s) => s.url.startsWith('https://') && (s.title ?? '').length <= 200));
  });
});
