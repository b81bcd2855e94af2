// The per-reply spend cap in the real extension host, against the local gateway: a tool loop
// stopped by the cap (the gateway sees no request after the round that passed it, the reply says
// why, and what arrived is kept and saved), the conversation's total in the header and History,
// the estimate beside Send, a cap that cannot be enforced said, not ignored, and a cap kept with an
// estimate when the gateway sends no token counts.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { join } from 'node:path';
import type { Conversation } from '../../src/shared/chatModel';
import type { HostToChatMessage } from '../../src/shared/chatProtocol';
import type { TestApi } from '../../src/extension/testApi';
import { FAULT_HEADER, type LocalGateway } from '../gateway/index';
import {
  activateExtension,
  clearKeyThroughCommand,
  connectedGateway,
  setSettingAndWait,
  setSettingQuietly,
  waitFor,
} from './extensionHost';
import { lastAssistantTurn, newConversationWith } from './chatDriver';

const PRICED = 'sim-openai/gpt-sim-mini';
/** Listed with no prices (only the spec's fields). */
const UNPRICED = 'sim-anthropic/sonnet-sim-4.5';
const CHAT_PATHS = ['/api/v1/chat/completions', '/api/v1/messages'];

describe('spend cap: per-reply cap, estimate and totals against the local gateway', function () {
  this.timeout(90_000);
  let api: TestApi;
  let gateway: LocalGateway;
  const posted: HostToChatMessage[] = [];

  before(async () => {
    api = await activateExtension();
    gateway = await connectedGateway(api);
  });

  after(async () => {
    await setSettingAndWait('chat.maxSpendPerReply', undefined);
    await setSettingAndWait('chat.costEstimateThreshold', undefined);
    await setSettingAndWait('defaultModels.chat', undefined);
    await clearKeyThroughCommand(true);
    await setSettingAndWait('baseUrl', undefined);
    await gateway?.stop();
  });

  it('ends a tool loop when the reply passes the cap: no request after it, the reason said, everything kept and saved', async () => {
    // A millionth of a cent: the first round (which asks for a tool) passes it.
    await setSettingAndWait('chat.maxSpendPerReply', 0.00000001);
    await newConversationWith(api, posted, PRICED);
    // History lists every conversation (a search another suite left would hide this one).
    await api.chat.handle({ type: 'searchHistory', query: '' });
    gateway.clearRequests();
    posted.length = 0;
    await api.chat.handle({ type: 'send', text: 'read_file.md' });

    const reply = lastAssistantTurn(api);
    assert.equal(reply.status, 'stopped');
    assert.equal(reply.finishReason, 'spend_cap');
    assert.equal(reply.error?.kind, 'spendCap');
    assert.match(reply.error?.message ?? '', /this reply's cost \$0\.\d{4} passed your cap of < \$0\.0001/);
    assert.deepEqual(reply.error?.actions, ['openSpendCap']);
    const chats = gateway.requests.filter((r) => CHAT_PATHS.includes(r.path));
    assert.equal(chats.length, 1, 'the gateway saw no request after the round that passed the cap');
    assert.deepEqual(reply.toolSteps, [], 'the tool it asked for was not run');
    assert.ok(reply.usage && reply.usage.promptTokens > 0, 'the round kept its usage');
    assert.ok(
      reply.wire[0]?.parts.some((part) => part.kind === 'toolCall'),
      'the round is kept (a later turn drops the unanswered call)',
    );
    const ended = posted.find((m) => m.type === 'replyEnded');
    assert.equal(ended?.type === 'replyEnded' ? ended.status : '', 'stopped');

    // Its cost (from pricing) and the conversation's total reach the chat, and the saved file.
    const total = await waitFor(
      () => posted.filter((m) => m.type === 'conversationCost').at(-1),
      (m) => m?.type === 'conversationCost' && m.cost !== undefined && m.cost.credits > 0,
      "the conversation's total",
    );
    const id = api.chat.current.id;
    const file = join(api.globalStorage, 'conversations', `${id}.json`);
    const saved = await waitFor(
      () => JSON.parse(readFileSync(file, 'utf8')) as Conversation,
      (conversation) => conversation.turns.at(-1)?.role === 'assistant' && 'cost' in conversation.turns.at(-1)!,
      'the saved reply with its cost',
    );
    const savedReply = saved.turns.at(-1);
    assert.equal(savedReply?.role === 'assistant' ? savedReply.error?.kind : '', 'spendCap');
    assert.equal(savedReply?.role === 'assistant' ? savedReply.finishReason : '', 'spend_cap');
    const row = await waitFor(
      () =>
        posted
          .filter((m) => m.type === 'history')
          .at(-1)
          ?.conversations.find((c) => c.id === id),
      // Rows posted as the reply ended (before its cost was told) say "cost unknown"; the next has the total.
      (found) => JSON.stringify(found?.cost) === JSON.stringify(total?.type === 'conversationCost' ? total.cost : {}),
      "the History row's total",
    );
    assert.equal(row?.cost?.unknownReplies, 0);

    // The next message replays the stopped round without its unanswered call: the gateway accepts it.
    await setSettingAndWait('chat.maxSpendPerReply', 0);
    await api.chat.handle({ type: 'send', text: 'Thanks, that is all.' });
    assert.equal(lastAssistantTurn(api).status, 'done');
  });

  it("a workspace's .vscode/settings.json cannot raise or remove the user's cap, nor hide the estimate", async () => {
    await setSettingAndWait('chat.maxSpendPerReply', 0.00000001);
    const settingsDir = join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, '.vscode');
    const settingsFile = join(settingsDir, 'settings.json');
    const before = existsSync(settingsFile) ? readFileSync(settingsFile, 'utf8') : undefined;
    const current = before?.trim() ? (JSON.parse(before) as Record<string, unknown>) : {};
    mkdirSync(settingsDir, { recursive: true });
    // A harmless setting in the same file: once VS Code shows it, it has read the file.
    writeFileSync(
      settingsFile,
      JSON.stringify({
        ...current,
        'unifiedInference.chat.maxSpendPerReply': 1000,
        'unifiedInference.chat.costEstimateThreshold': 1000,
        'unifiedInference.credits.warningThreshold': 6.25,
      }),
    );
    try {
      await waitFor(
        () => vscode.workspace.getConfiguration('unifiedInference').get('credits.warningThreshold'),
        (value) => value === 6.25,
        'VS Code reading the workspace settings file',
      );
      assert.equal(api.settings().chat.maxSpendPerReply, 0.00000001, "the user's cap stands");
      assert.equal(api.settings().chat.costEstimateThreshold, 0.05, "the user's threshold (the default) stands");
      await newConversationWith(api, posted, PRICED);
      await api.chat.handle({ type: 'send', text: 'read_file.md' });
      assert.equal(lastAssistantTurn(api).finishReason, 'spend_cap', 'the reply still stops at the cap');
    } finally {
      writeFileSync(settingsFile, before ?? '{}');
      await waitFor(
        () => vscode.workspace.getConfiguration('unifiedInference').get('credits.warningThreshold'),
        (value) => value !== 6.25,
        'the workspace settings restored',
      );
    }
  });

  it('says once that a cap cannot be enforced for a model without prices, and still answers', async () => {
    await setSettingAndWait('chat.maxSpendPerReply', 0.5);
    await newConversationWith(api, posted, UNPRICED);
    posted.length = 0;
    await api.chat.handle({ type: 'send', text: 'Hello' });
    await api.chat.handle({ type: 'send', text: 'Hello again' });
    const notices = posted.filter(
      (m) => m.type === 'notice' && /cannot be enforced for sim-anthropic\/sonnet-sim-4\.5/.test(m.notice.text),
    );
    assert.equal(notices.length, 1, 'said once, not on every reply');
    assert.equal(lastAssistantTurn(api).status, 'done');
  });

  it('estimates the send beside Send from the draft, without asking the gateway', async () => {
    await setSettingAndWait('chat.costEstimateThreshold', 0);
    await setSettingAndWait('chat.maxSpendPerReply', 0);
    await newConversationWith(api, posted, PRICED);
    await api.chat.handle({ type: 'setParameters', parameters: { maxTokens: 1000 } });
    gateway.clearRequests();
    posted.length = 0;
    await api.chat.handle({ type: 'draftSize', chars: 3000 });
    const estimate = await waitFor(
      () => posted.filter((m) => m.type === 'costEstimate').at(-1),
      (m) => m?.type === 'costEstimate' && m.estimate !== undefined,
      'the estimate',
    );
    const shown = estimate?.type === 'costEstimate' ? estimate.estimate : undefined;
    assert.equal(shown?.kind, 'range');
    // gpt-sim-mini: $0.15 / $0.60 per million; 1000 output tokens add $0.0006 at most.
    if (shown?.kind === 'range') assert.ok(Math.abs(shown.high - shown.low - 0.0006) < 1e-9, JSON.stringify(shown));
    assert.equal(gateway.requests.length, 0, 'no request to the gateway for an estimate');

    await newConversationWith(api, posted, UNPRICED);
    posted.length = 0;
    await api.chat.handle({ type: 'draftSize', chars: 10 });
    await waitFor(
      () => posted.filter((m) => m.type === 'costEstimate').at(-1),
      (m) => m?.type === 'costEstimate' && m.estimate?.kind === 'unknown',
      'the estimate saying the cost is unknown',
    );
  });

  // Last: the client remembers, for this gateway's address, to send no stream_options (so no usage).
  it('charges an estimate when a tool round came without token counts: the cap still ends the loop, said before the reply ends', async () => {
    await setSettingAndWait('chat.maxSpendPerReply', 0.00000001);
    await setSettingQuietly(api, 'extraHeaders', { [FAULT_HEADER]: 'reject-stream-options' });
    try {
      await newConversationWith(api, posted, PRICED);
      gateway.clearRequests();
      posted.length = 0;
      await api.chat.handle({ type: 'send', text: 'read_file.md' });
      const reply = lastAssistantTurn(api);
      assert.equal(reply.usage, undefined, 'the gateway sent no token counts');
      assert.equal(reply.status, 'stopped');
      assert.equal(reply.finishReason, 'spend_cap');
      assert.match(
        reply.error?.message ?? '',
        /estimated cost \$0\.\d{4} passed your cap of < \$0\.0001 per reply \(the gateway reported no token counts/,
      );
      assert.deepEqual(reply.toolSteps, [], 'the tool it asked for was not run (nor asked about)');
      const answered = gateway.requests.filter((r) => CHAT_PATHS.includes(r.path) && r.status === 200);
      assert.equal(answered.length, 1, 'the gateway saw no request after the round that passed the cap');
      const notice = posted.findIndex(
        (m) => m.type === 'notice' && /no token counts.*checked against an estimate/.test(m.notice.text),
      );
      const ended = posted.findIndex((m) => m.type === 'replyEnded');
      assert.ok(notice >= 0 && notice < ended, 'the estimate is said while the reply runs, not after it');
    } finally {
      await setSettingQuietly(api, 'extraHeaders', undefined);
    }
  });
});
