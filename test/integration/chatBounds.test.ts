import * as assert from 'node:assert/strict';
import type { AssistantTurn, Conversation } from '../../src/shared/chatModel';
import type { HostToChatMessage } from '../../src/shared/chatProtocol';
import type { TestApi } from '../../src/extension/testApi';
import type { LocalGateway } from '../gateway/index';
import { activateExtension, clearKeyThroughCommand, connectedGateway, setSetting, waitFor } from './extensionHost';
import { lastAssistantTurn, newConversationWith } from './chatDriver';

// Hostile answers against the real chat: a line that never ends, thousands of tool calls, thousands
// of server-run tools. The chat survives each with what arrived kept, saves the conversation a few
// times per reply (never per event), and the saved conversation reads back.
describe('chat bounds: hostile answers', function () {
  this.timeout(120_000);
  let api: TestApi;
  let gateway: LocalGateway;
  let posted: HostToChatMessage[];

  const lastReply = (): AssistantTurn => lastAssistantTurn(api);

  const useModel = (model: string): Promise<void> => newConversationWith(api, posted, model);

  /** Opens another conversation, then this one again from disk: what was saved. */
  async function reloaded(id: string): Promise<Conversation> {
    await api.chat.handle({ type: 'newConversation' });
    await api.chat.handle({ type: 'openConversation', id });
    assert.equal(api.chat.current.id, id, 'the saved conversation opened');
    return api.chat.current;
  }

  before(async () => {
    api = await activateExtension();
    gateway = await connectedGateway(api);
    posted = [];
  });

  after(async () => {
    await setSetting('defaultModels.chat', undefined);
    await clearKeyThroughCommand(true);
    await setSetting('baseUrl', undefined);
    await gateway?.stop();
  });

  it('stops an SSE line that never ends at the event cap, keeps the text before it, and saves', async () => {
    await useModel('sim-openai/gpt-sim-mini::endless-line');
    await api.chat.handle({ type: 'send', text: 'Say something, then never stop' });
    const reply = lastReply();
    assert.equal(reply.status, 'error');
    assert.equal(reply.error?.kind, 'interrupted');
    assert.match(
      reply.error?.message ?? '',
      /The gateway sent an event larger than 16 MB, the most the extension reads for one event, so the answer was cut there\. What arrived is kept\./,
    );
    assert.ok(reply.content.length > 0, 'the text before the endless line is kept');
    const request = gateway.requests.filter((r) => r.path === '/api/v1/chat/completions').at(-1);
    assert.equal(await request?.closed, 'aborted', 'the extension hung up');
    assert.ok((request?.bytesWritten ?? 0) < 64 * 1024 * 1024, `read ${request?.bytesWritten} bytes`);
    const saved = (await reloaded(api.chat.current.id)).turns.at(-1) as AssistantTurn;
    assert.equal(saved.content, reply.content);
  });

  it('runs 64 of 5000 tool calls in one answer, tells the model about the rest, and saves a few times, not per step', async () => {
    await useModel('sim-openai/gpt-sim-mini::tool-flood=5000');
    const id = api.chat.current.id;
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
    await api.chat.handle({
      type: 'approveTool',
      callId: asked?.step.kind === 'function' ? asked.step.id : '',
      decision: 'always',
    });
    await sending;
    const reply = lastReply();
    assert.equal(reply.status, 'done');
    const steps = reply.toolSteps.filter((step) => step.kind === 'function');
    assert.equal(steps.length, 64);
    assert.ok(steps.every((step) => step.kind === 'function' && step.status === 'done'));
    const second = gateway.requests.filter((r) => r.path === '/api/v1/chat/completions').at(-1);
    assert.match(
      JSON.stringify(second?.body),
      /4936 more tool calls were in your answer and were not run/,
      'the model was told',
    );
    // Before the request, once after the tool round, once at the end, and once more for the cost.
    const saves = api.chat.saveCounts.get(id) ?? 0;
    assert.ok(saves <= 5, `${saves} saves for one reply with 64 tool steps`);
    const saved = (await reloaded(id)).turns.at(-1) as AssistantTurn;
    assert.equal(saved.toolSteps.length, 64);
  });

  it('shows 64 of 5000 tools the gateway ran in one chunk, and one line for the rest', async () => {
    await useModel('sim-openai/gpt-sim-mini::tools-executed=5000');
    const id = api.chat.current.id;
    await api.chat.handle({ type: 'send', text: 'Look it up' });
    const reply = lastReply();
    assert.equal(reply.status, 'done');
    assert.equal(reply.toolSteps.length, 65);
    const summary = reply.toolSteps.at(-1);
    assert.match(
      summary?.kind === 'server' ? (summary.result ?? '') : '',
      /ran 4936 more tools in this answer; at most 64 are shown/,
    );
    const saves = api.chat.saveCounts.get(id) ?? 0;
    assert.ok(saves <= 4, `${saves} saves for one reply with 65 steps`);
    assert.equal(((await reloaded(id)).turns.at(-1) as AssistantTurn).toolSteps.length, 65);
  });
});
