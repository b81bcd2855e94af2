import * as assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { AssistantTurn } from '../../src/shared/chatModel';
import type { ContextMeter, HostToChatMessage } from '../../src/shared/chatProtocol';
import type { TestApi } from '../../src/extension/testApi';
import { FAULT_HEADER, type LocalGateway, type RequestRecord } from '../gateway/index';
import {
  activateExtension,
  clearKeyThroughCommand,
  connectedGateway,
  setSetting,
  setSettingAndWait,
  setSettingQuietly,
  waitFor,
} from './extensionHost';

// The context window in the real extension host: the sidebar chat's controller, driven as its
// webview drives it, against the local gateway's 2,048-token model.
const TINY = 'sim-openai/gpt-sim-tiny';
const MINI = 'sim-openai/gpt-sim-mini';
const SUMMARY_WORDS = 'compress a conversation';
type Json = Record<string, unknown>;

describe('context window: compaction and instruction files', function () {
  this.timeout(180_000);
  let api: TestApi;
  let gateway: LocalGateway;
  let posted: HostToChatMessage[];

  const chatRequests = (): RequestRecord[] => gateway.requests.filter((r) => r.path === '/api/v1/chat/completions');
  const messagesOf = (record: RequestRecord | undefined): Json[] =>
    ((record?.body as Json | undefined)?.messages ?? []) as Json[];
  const systemOf = (record: RequestRecord | undefined): string => {
    const first = messagesOf(record)[0];
    return first?.role === 'system' ? String(first.content) : '';
  };
  const isSummaryRequest = (record: RequestRecord): boolean => systemOf(record).includes(SUMMARY_WORDS);
  const replies = (): AssistantTurn[] =>
    api.chat.current.turns.filter((turn): turn is AssistantTurn => turn.role === 'assistant');
  const lastReply = (): AssistantTurn => replies().at(-1) as AssistantTurn;
  const meters = (): ContextMeter[] => posted.flatMap((m) => (m.type === 'contextMeter' ? [m.meter] : []));
  const folder = (): string => {
    const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    assert.ok(root, 'the suite opens a folder');
    return root;
  };

  async function useModel(model: string): Promise<void> {
    api.chat.attach((message) => posted.push(message));
    // The seven workspace tools' definitions alone take about half of the tiny model's 2,048
    // tokens; its tests are about the conversation, so it runs without them.
    await setSettingAndWait('chat.workspaceTools', model === TINY ? false : undefined);
    await setSettingAndWait('defaultModels.chat', model);
    await api.chat.handle({ type: 'newConversation' });
    gateway.clearRequests();
    gateway.resetFaultCounters();
    posted.length = 0;
  }

  async function send(text: string): Promise<AssistantTurn> {
    await api.chat.handle({ type: 'send', text });
    const reply = lastReply();
    assert.equal(reply.status, 'done', `the reply ended ${reply.status}: ${reply.error?.message ?? ''}`);
    return reply;
  }

  before(async () => {
    api = await activateExtension();
    gateway = await connectedGateway(api);
    posted = [];
    api.chat.attach((message) => posted.push(message));
    await waitFor(
      () => api.catalog.snapshot?.models.some((m) => m.id === TINY),
      (found) => found === true,
      'the catalog with the small model',
    );
  });

  after(async () => {
    await setSettingQuietly(api, 'extraHeaders', undefined);
    await setSetting('defaultModels.chat', undefined);
    await setSetting('chat.useInstructionFiles', undefined);
    await setSetting('chat.workspaceTools', undefined);
    await clearKeyThroughCommand(true);
    await setSetting('baseUrl', undefined);
    await gateway?.stop();
  });

  it("keeps a conversation going far past the small model's context: no context error, every request under the limit, the summary in it", async () => {
    await useModel(TINY);
    for (let i = 0; i < 12; i++) {
      await send(
        `Message ${i}: describe part ${i} of the deployment, ${'with its configuration, its failure modes and how we monitor it, '.repeat(4)}`,
      );
    }
    const requests = chatRequests();
    assert.ok(
      requests.every((r) => r.status === 200),
      `no refusal: ${requests.map((r) => r.status).join(',')}`,
    );
    assert.ok(requests.some(isSummaryRequest), 'a summary was made through the gateway');
    const main = requests.filter((r) => !isSummaryRequest(r));
    const last = main.at(-1);
    // The summary (made from old turns, tool output included) is a user-role message framed as a summary, never system text.
    assert.doesNotMatch(systemOf(last), /<conversation-summary>/, 'the summary has no system authority');
    assert.match(systemOf(last), /carries no authority/, 'the system prompt says what the summary message is');
    const lead = messagesOf(last)[1];
    assert.equal(lead?.role, 'user');
    assert.match(
      JSON.stringify(lead?.content),
      /Not a message from the user: a summary of the earlier part of this conversation.*<conversation-summary>/,
      'the last request carries the summary, labelled',
    );
    assert.ok(messagesOf(last).length < api.chat.current.turns.length, 'fewer messages than turns');
    assert.equal(api.chat.current.turns.length, 24, 'every turn stays in the conversation');
    const summarized = replies().find((reply) => reply.context?.summary);
    assert.ok(summarized, 'a reply records the summary');
    assert.ok(
      posted.some((m) => m.type === 'replyContext' && m.context.summary),
      'the webview was told',
    );
    // The meter: measured from the last reply's usage, against the catalog's 2,048.
    const meter = await waitFor(
      () => meters().at(-1),
      (m) => m?.source === 'measured',
      'a measured meter',
    );
    assert.equal(meter?.contextLength, 2048);
    assert.ok((meter?.usedTokens ?? 0) > 0 && (meter?.usedTokens ?? 0) <= 2048, `${meter?.usedTokens}`);
    // Saved and read back: the summary survives the store and its validation.
    const id = api.chat.current.id;
    await api.chat.handle({ type: 'newConversation' });
    await api.chat.handle({ type: 'openConversation', id });
    assert.equal(api.chat.current.id, id);
    const reloaded = api.chat.current.turns.find((turn) => turn.id === summarized.id) as AssistantTurn | undefined;
    assert.deepEqual(reloaded?.context?.summary, summarized.context?.summary);
    // And the conversation goes on from the stored summary.
    gateway.clearRequests();
    await send('One more question about the first part.');
    assert.ok(chatRequests().every((r) => r.status === 200));
    assert.match(
      JSON.stringify(
        messagesOf(
          chatRequests()
            .filter((r) => !isSummaryRequest(r))
            .at(-1),
        )[1]?.content,
      ),
      /<conversation-summary>/,
    );
  });

  it('leaves the oldest turns out, and says so, when the summary request fails', async () => {
    await setSettingQuietly(api, 'extraHeaders', { [FAULT_HEADER]: `status=400;match=${SUMMARY_WORDS}` });
    try {
      await useModel(TINY);
      let dropped: AssistantTurn | undefined;
      for (let i = 0; i < 12 && !dropped; i++) {
        const reply = await send(
          `Question ${i}: ${'how do the build caches interact with the release branches, '.repeat(4)}`,
        );
        if (reply.context?.dropped) dropped = reply;
      }
      assert.ok(dropped, 'a reply left old turns out');
      assert.match(dropped.context?.dropped?.reason ?? '', /summary request failed/);
      const requests = chatRequests();
      assert.ok(
        requests.some((r) => isSummaryRequest(r) && r.status === 400),
        'the summary request was refused',
      );
      assert.equal(requests.at(-1)?.status, 200);
      assert.match(systemOf(requests.at(-1)), /left out to fit your context window/);
      assert.ok(
        posted.some((m) => m.type === 'replyContext' && m.id === dropped?.id && m.context.dropped),
        'the webview was told',
      );
    } finally {
      await setSettingQuietly(api, 'extraHeaders', undefined);
    }
  });

  it('compacts harder and sends again when the gateway still finds the request too long', async () => {
    await useModel(TINY);
    // One token per mark to the gateway, a third of that to the character estimate.
    const reply = await send(`Look at this: ${'!?'.repeat(1100)} what is it?`);
    const requests = chatRequests();
    assert.equal(requests[0]?.status, 400, 'the first try was refused');
    assert.equal(requests.at(-1)?.status, 200, 'the retry was answered');
    assert.equal(reply.context?.retried, true);
    assert.ok((reply.context?.trimmedMessageChars ?? 0) > 0, 'the message was trimmed, and the reply says so');
  });

  it('puts AGENTS.md and .github/copilot-instructions.md in the system prompt, labelled; not with the setting off; not in an untrusted workspace', async () => {
    const agents = join(folder(), 'AGENTS.md');
    const copilot = join(folder(), '.github', 'copilot-instructions.md');
    mkdirSync(join(folder(), '.github'), { recursive: true });
    writeFileSync(agents, '# Agent notes\n\nUse tabs. AGENTS-MARKER-5521\n');
    writeFileSync(copilot, 'Prefer small functions. COPILOT-MARKER-8834\n');
    try {
      await useModel(MINI);
      await send('Hello there');
      const system = systemOf(chatRequests().at(-1));
      assert.match(system, /AGENTS-MARKER-5521/);
      assert.match(system, /COPILOT-MARKER-8834/);
      assert.match(system, /written by the repository's authors, not by the user/);
      const meter = await waitFor(
        () => meters().at(-1),
        (m) => (m?.files.length ?? 0) === 2,
        'the chips',
      );
      assert.deepEqual(meter?.files.map((f) => f.path).sort(), ['.github/copilot-instructions.md', 'AGENTS.md']);

      await setSettingAndWait('chat.useInstructionFiles', false);
      await send('And now?');
      assert.doesNotMatch(systemOf(chatRequests().at(-1)), /MARKER/);
      await waitFor(
        () => meters().at(-1),
        (m) => m?.files.length === 0,
        'no chips with the setting off',
      );
      await setSettingAndWait('chat.useInstructionFiles', undefined);

      // An untrusted repository must not instruct the model (the test host runs trusted: trust is faked here).
      const trust = Object.getOwnPropertyDescriptor(vscode.workspace, 'isTrusted');
      Object.defineProperty(vscode.workspace, 'isTrusted', { configurable: true, get: () => false });
      try {
        await send('And untrusted?');
        assert.doesNotMatch(systemOf(chatRequests().at(-1)), /MARKER/);
        assert.match(
          systemOf(chatRequests().at(-1)),
          /not trusted in VS Code \(Restricted Mode\)/,
          'the model is told why it has no tools',
        );
      } finally {
        if (trust) Object.defineProperty(vscode.workspace, 'isTrusted', trust);
      }
      await send('Trusted again');
      assert.match(systemOf(chatRequests().at(-1)), /AGENTS-MARKER-5521/);
    } finally {
      rmSync(agents, { force: true });
      rmSync(join(folder(), '.github'), { recursive: true, force: true });
    }
  });

  it("estimates the meter again when the conversation's system prompt changes", async () => {
    await useModel(MINI);
    await api.chat.handle({ type: 'setParameters', parameters: { systemPrompt: 'Be brief.' } });
    const before = await waitFor(
      () => meters().at(-1),
      (m) => m !== undefined,
      'a meter',
    );
    await api.chat.handle({
      type: 'setParameters',
      parameters: { systemPrompt: "Answer in the style of a ship's log. ".repeat(100) },
    });
    const after = await waitFor(
      () => meters().at(-1),
      (m) => (m?.usedTokens ?? 0) > (before?.usedTokens ?? 0) + 500,
      'a meter that counts the longer system prompt',
    );
    assert.equal(after?.source, 'estimated');
  });

  it('does not shrink after the first reply: the measured count holds what the estimate counted (the tools too)', async () => {
    await useModel(MINI);
    await api.chat.handle({ type: 'newConversation' });
    const estimated = await waitFor(
      () => meters().at(-1),
      (m) => m?.source === 'estimated' && m.usedTokens > 0,
      'the estimate before the first message',
    );
    posted.length = 0;
    await api.chat.handle({ type: 'send', text: 'Hello' });
    const measured = await waitFor(
      () => meters().at(-1),
      (m) => m?.source === 'measured',
      'the meter measured from the reply',
    );
    // The request carried the tools' definitions: a gateway counts them, as real providers do.
    assert.ok(
      (measured?.usedTokens ?? 0) >= (estimated?.usedTokens ?? 0),
      `${measured?.usedTokens} after the reply, ${estimated?.usedTokens} before it`,
    );
  });
});
