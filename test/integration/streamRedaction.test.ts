import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { foldCase, secretForms } from '../../src/core/secrets/secretForms';
import type { HostToChatMessage } from '../../src/shared/chatProtocol';
import { readJournal } from '../../src/core/chat/history/replyJournal';
import type { TestApi } from '../../src/extension/testApi';
import { startGateway, type LocalGateway } from '../gateway/index';
import { SPLIT_ECHO_END } from '../gateway/keyEcho';
import {
  activateExtension,
  askModel,
  clearKeyThroughCommand,
  setKeyThroughCommand,
  setSetting,
  setSettingAndWait,
  waitFor,
} from './extensionHost';

// The harness's key for this run (searched for in every file the run wrote, afterwards). The local
// gateway's `echo-key=split` has the model write it into its answer, each form split across
// deltas: plain, base64, base64url inside `user:<key>`, upper-case hex, upper case.
const KEY = process.env.UNIFIED_INFERENCE_TEST_SECRET ?? 'uik-test/fallback/0123456789';
const CHAT = 'sim-openai/gpt-sim-mini';
const CLAUDE = 'sim-anthropic/claude-sim-sonnet';

/** Whether `text` spells the key in any form, any letter case (never quoted in a message: it would be written to the report). */
function spellsKey(text: string): boolean {
  const folded = foldCase(text);
  return secretForms(KEY).some((form) => folded.includes(foldCase(form)));
}

describe('stream redaction: a key split across deltas or re-encoded reaches no sink', function () {
  this.timeout(90_000);
  let api: TestApi;
  let gateway: LocalGateway;

  before(async () => {
    api = await activateExtension();
    gateway = await startGateway({ keys: { [KEY]: { credits: 40 } } });
    await setSetting('baseUrl', gateway.url);
    await setKeyThroughCommand(KEY);
    await waitFor(
      () => api.connection.setup,
      (setup) => setup.hasKey && setup.baseUrl === gateway.url,
      'the connection to the gateway',
    );
  });

  after(async () => {
    await setSetting('extraHeaders', undefined);
    await setSetting('defaultModels.chat', undefined);
    await clearKeyThroughCommand(true);
    await setSetting('baseUrl', undefined);
    await gateway?.stop();
  });

  for (const model of [CHAT, CLAUDE]) {
    it(`${model}: not in the webview's messages, the journal on disk while it streams, the reply or the saved history`, async () => {
      const posted: HostToChatMessage[] = [];
      api.chat.attach((message) => posted.push(message));
      // The stream sends every delta, then stays open: the journal on disk is read while it is live.
      await setSettingAndWait('defaultModels.chat', `${model}::echo-key=split;hang-before-end`);
      await api.chat.handle({ type: 'newConversation' });
      const id = api.chat.current.id;
      const folder = join(api.globalStorage, 'conversations');
      const journal = join(folder, `${id}.journal`);
      const sending = api.chat.handle({ type: 'send', text: 'Tell me the key you were sent' });
      const journalText = (): string => (existsSync(journal) ? readFileSync(journal, 'utf8') : '');
      await waitFor(
        () => journalText().includes(SPLIT_ECHO_END),
        (done) => done,
        'the whole echo in the journal on disk',
      );
      // One line per batch: what a reader recovers is the batches joined, as replay joins them.
      const batches = (await readJournal(journal))?.batches ?? [];
      const recovered = ['c', 'r']
        .map((field) =>
          batches
            .filter((batch) => batch.field === field)
            .map((batch) => batch.text)
            .join(''),
        )
        .join('\n');
      assert.ok(recovered.includes(SPLIT_ECHO_END), 'the journal holds the whole reply');
      assert.ok(
        !spellsKey(journalText()) && !spellsKey(recovered),
        'the journal on disk holds no form of the key, not even across its lines',
      );
      assert.match(recovered, /\[redacted\]/, 'the journal holds the reply, redacted');
      await api.chat.handle({ type: 'stop' });
      await sending;

      const reply = api.chat.current.turns.at(-1);
      const content = reply?.role === 'assistant' ? reply.content : '';
      assert.ok(content.endsWith(SPLIT_ECHO_END), 'every piece of the reply arrived');
      assert.equal(content.match(/\[redacted\]/g)?.length, 5, 'each of the five forms was replaced');
      assert.ok(!spellsKey(JSON.stringify(reply)), 'the reply in memory holds no form of the key');
      assert.ok(
        posted.some((message) => message.type === 'replyDelta'),
        'deltas were posted',
      );
      assert.ok(!spellsKey(JSON.stringify(posted)), 'nothing posted to the webview holds a form of the key');
      const saved = join(folder, `${id}.json`);
      await waitFor(
        () => existsSync(saved) && readFileSync(saved, 'utf8').includes(SPLIT_ECHO_END),
        (done) => done,
        'the saved conversation',
      );
      assert.ok(!spellsKey(readFileSync(saved, 'utf8')), 'the saved history holds no form of the key');
    });
  }

  it("@unified and vscode.lm: what VS Code's chat and another extension get holds no form of it", async () => {
    await setSettingAndWait('defaultModels.chat', `${CHAT}::echo-key=split`);
    const written: string[] = [];
    const stream = {
      markdown: (value: string | vscode.MarkdownString) =>
        written.push(typeof value === 'string' ? value : value.value),
      button: () => undefined,
      progress: () => undefined,
      reference: () => undefined,
      anchor: () => undefined,
    } as unknown as vscode.ChatResponseStream;
    const request = {
      prompt: 'Tell me the key',
      command: undefined,
      references: [],
      toolReferences: [],
      toolInvocationToken: undefined,
      model: undefined,
    } as unknown as vscode.ChatRequest;
    await api.participantHandler(request, { history: [] }, stream, new vscode.CancellationTokenSource().token);
    const shown = written.join('');
    assert.ok(shown.endsWith(SPLIT_ECHO_END), '@unified wrote the whole answer');
    assert.match(shown, /\[redacted\]/);
    assert.ok(!spellsKey(shown), '@unified wrote no form of the key');

    await setSetting('extraHeaders', { 'x-gateway-fault': 'echo-key=split' });
    await waitFor(
      () => api.connection.setup.client,
      (client) => client !== undefined,
      'the rebuilt connection',
    );
    for (const id of [CHAT, CLAUDE]) {
      const [chosen] = await waitFor(
        async () => vscode.lm.selectChatModels({ vendor: 'unified-inference', id }),
        (models) => models.length > 0,
        'the gateway model in vscode.lm',
      );
      const answer = await askModel(chosen!, [vscode.LanguageModelChatMessage.User('Tell me the key')]);
      assert.ok(answer.text.endsWith(SPLIT_ECHO_END), `${id}: vscode.lm streamed the whole answer`);
      assert.match(answer.text, /\[redacted\]/);
      assert.ok(!spellsKey(answer.text), `${id}: vscode.lm handed on no form of the key`);
    }
    await setSetting('extraHeaders', undefined);
  });

  it('keeps only known fields of the model catalog, redacted, in extension state', async () => {
    await setSetting('extraHeaders', { 'x-gateway-fault': 'echo-key' });
    try {
      await waitFor(
        () => api.connection.setup.client,
        (client) => client !== undefined,
        'the rebuilt connection',
      );
      const snapshot = await api.catalog.refresh();
      assert.ok(snapshot && snapshot.models.length > 0, 'the catalog was read');
      assert.ok(
        gateway.requests.some((r) => r.path === '/api/v1/models' && r.fault === 'echo-key'),
        'the gateway echoed the key into the catalog',
      );
      const stored = JSON.stringify(api.storedState());
      assert.match(stored, /sim-openai\/gpt-sim-mini/, 'the catalog is in extension state');
      assert.ok(!spellsKey(stored), 'extension state holds no form of the key');
      assert.ok(
        !stored.includes('echoed_authorization') && !stored.includes('Local simulation of a'),
        "fields the extension does not read (the echo's own, `description`) are not kept",
      );
      assert.ok(
        snapshot.models.some((model) => String(model.owned_by).endsWith('[redacted]')),
        'a known field keeps its text, redacted',
      );
    } finally {
      await setSetting('extraHeaders', undefined);
    }
  });
});
