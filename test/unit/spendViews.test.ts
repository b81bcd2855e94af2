// What the chat webview shows of spending: the estimate beside Send (and the draft's length it
// asks it with), the conversation's total in the header and in History, and a reply the spend cap
// stopped: the reason in words with the button that opens the setting.
import * as assert from 'node:assert/strict';
import { useWebviewPage } from './webviewPage';
import type { ChatToHostMessage, HostToChatMessage } from '../../src/shared/chatProtocol';
import { ChatApp } from '../../src/webview/chat/chatApp';

describe('chat webview: spending (jsdom)', () => {
  let root: HTMLElement;
  let sent: ChatToHostMessage[];
  let app: ChatApp;
  const page = useWebviewPage();

  beforeEach(() => {
    root = page.root;
    sent = [];
    app = new ChatApp(
      root,
      (message) => sent.push(message),
      undefined,
      () => undefined,
      { armApprovals: (arm) => arm() },
    );
    app.handle({ type: 'connectionState', state: { baseUrl: 'http://gw', keySource: 'secretStorage' } });
  });

  const handle = (message: HostToChatMessage): void => app.handle(message);
  /** Waits (on state, bounded) until the page sent a message matching `match`. */
  const sentMatching = async (match: (m: ChatToHostMessage) => boolean): Promise<ChatToHostMessage> => {
    for (let i = 0; i < 400; i++) {
      const found = sent.find(match);
      if (found) return found;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    assert.fail('the message was not sent');
  };

  it('shows the estimate beside Send as a range, "output not bounded", or a subtle "cost unknown", and hides it', () => {
    const estimate = root.querySelector('.composer-toolbar .cost-estimate') as HTMLElement;
    assert.equal(estimate.hidden, true, 'nothing before the host estimates');
    assert.equal(estimate.nextElementSibling?.classList.contains('stop'), true, 'beside Stop/Send');
    handle({ type: 'costEstimate', estimate: { kind: 'range', low: 0.012, high: 0.054 } });
    assert.equal(estimate.hidden, false);
    assert.equal(estimate.textContent, '≈ $0.0120 – $0.0540');
    assert.match(estimate.title, /max tokens/);
    handle({ type: 'costEstimate', estimate: { kind: 'unbounded', low: 0.2 } });
    assert.equal(estimate.textContent, '≥ $0.2000 (output not bounded)');
    handle({ type: 'costEstimate', estimate: { kind: 'unknown' } });
    assert.equal(estimate.textContent, 'cost unknown');
    assert.ok(estimate.classList.contains('unknown'), 'styled subtly');
    handle({ type: 'costEstimate' });
    assert.equal(estimate.hidden, true);
  });

  it("tells the host the draft's length (never its text) once typing pauses, and 0 after a send", async () => {
    const input = root.querySelector('.composer-input') as HTMLTextAreaElement;
    input.value = 'secret draft';
    input.dispatchEvent(new page.dom.window.Event('input'));
    assert.deepEqual(await sentMatching((m) => m.type === 'draftSize'), { type: 'draftSize', chars: 12 });
    assert.equal(sent.filter((m) => m.type === 'draftSize').length, 1, 'one message per pause, not per keystroke');
    sent.length = 0;
    input.dispatchEvent(new page.dom.window.KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    assert.deepEqual(sent[0], { type: 'send', text: 'secret draft' });
    assert.deepEqual(await sentMatching((m) => m.type === 'draftSize'), { type: 'draftSize', chars: 0 });
  });

  it("shows the conversation's total in the header: exact, ≈, ≥, unknown, or nothing", () => {
    const cost = root.querySelector('.chat-header .conversation-cost') as HTMLElement;
    assert.equal(cost.hidden, true);
    handle({ type: 'conversationCost', cost: { credits: 0.0421, approximate: false, unknownReplies: 0 } });
    assert.equal(cost.hidden, false);
    assert.equal(cost.textContent, '$0.0421');
    handle({ type: 'conversationCost', cost: { credits: 0.0421, approximate: true, unknownReplies: 0 } });
    assert.equal(cost.textContent, '≈ $0.0421');
    handle({ type: 'conversationCost', cost: { credits: 0.0421, approximate: false, unknownReplies: 2 } });
    assert.equal(cost.textContent, '≥ $0.0421');
    assert.match(cost.title, /2 replies told no cost/);
    handle({ type: 'conversationCost', cost: { credits: 0, approximate: false, unknownReplies: 1 } });
    assert.equal(cost.textContent, 'cost unknown');
    handle({ type: 'conversationCost' });
    assert.equal(cost.hidden, true);
  });

  it("shows each History row's total, and none for a row without one (an older index)", () => {
    handle({
      type: 'history',
      conversations: [
        {
          id: 'c1',
          title: 'Priced',
          model: 'm',
          updatedAt: 0,
          turnCount: 2,
          cost: { credits: 1.5, approximate: false, unknownReplies: 0 },
        },
        { id: 'c2', title: 'Old', model: 'm', updatedAt: 0, turnCount: 2 },
      ],
      query: '',
    });
    const metas = Array.from(root.querySelectorAll('.history-item .history-meta'), (m) => m.textContent ?? '');
    assert.match(metas[0] ?? '', / · 2 messages · \$1\.50$/);
    assert.match(metas[1] ?? '', / · 2 messages$/);
  });

  it('shows a reply the cap stopped as stopped, with the reason and the button that opens the setting', () => {
    handle({
      type: 'conversation',
      conversation: {
        id: 'c1',
        title: 't',
        model: 'm',
        parameters: {},
        turns: [{ role: 'user', id: 'u1', text: 'q', attachments: [], createdAt: 0 }],
        createdAt: 0,
        updatedAt: 0,
      },
      busy: false,
    });
    handle({
      type: 'replyStarted',
      turn: {
        role: 'assistant',
        id: 'a1',
        model: 'm',
        content: '',
        reasoning: '',
        toolSteps: [],
        status: 'streaming',
        wire: [],
        createdAt: 0,
      },
    });
    handle({ type: 'replyDelta', id: 'a1', content: 'Reading the file first.' });
    handle({
      type: 'replyEnded',
      id: 'a1',
      status: 'stopped',
      finishReason: 'spend_cap',
      error: {
        kind: 'spendCap',
        message: "Stopped: this reply's cost $0.0300 passed your cap of $0.0100 per reply.",
        actions: ['openSpendCap'],
      },
    });
    const turn = root.querySelector('[data-turn-id="a1"]') as HTMLElement;
    assert.equal(turn.querySelector('.badge')?.textContent, 'stopped');
    assert.match(turn.textContent ?? '', /Reading the file first\./, 'what arrived stays');
    const line = turn.querySelector('.error-message.spend-cap') as HTMLElement;
    assert.match(line.textContent ?? '', /passed your cap of \$0\.0100/);
    assert.ok(line.querySelector('.codicon-warning'), 'a warning, not an error');
    const button = turn.querySelector('.error-actions button') as HTMLButtonElement;
    assert.equal(button.textContent, 'Open Spend Cap Setting');
    button.click();
    assert.deepEqual(sent.at(-1), { type: 'errorAction', action: 'openSpendCap' });
  });
});
