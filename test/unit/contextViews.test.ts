// The context window in the chat webview (jsdom): the meter's text, bar and accessible name, the
// instruction chips, and a reply's compaction note, all driven through ChatApp's host messages.
import * as assert from 'node:assert/strict';
import { useWebviewPage } from './webviewPage';
import type { AssistantTurn, Conversation } from '../../src/shared/chatModel';
import type { ChatToHostMessage } from '../../src/shared/chatProtocol';
import { parseChatToHostMessage } from '../../src/shared/chatProtocol';
import { ChatApp } from '../../src/webview/chat/chatApp';
import { compactCount } from '../../src/webview/chat/contextViews';
import { parseConversation } from '../../src/core/chat/history/conversationShape';

const reply = (extra: Partial<AssistantTurn> = {}): AssistantTurn => ({
  role: 'assistant',
  id: 'a1',
  model: 'sim/tiny',
  content: 'ok',
  reasoning: '',
  toolSteps: [],
  status: 'done',
  wire: [],
  createdAt: 0,
  ...extra,
});
const conversation = (turns: Conversation['turns']): Conversation => ({
  id: 'c1',
  title: 't',
  model: 'sim/tiny',
  parameters: {},
  turns,
  createdAt: 0,
  updatedAt: 0,
});

describe('context window in the chat webview (jsdom)', () => {
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
    );
    app.handle({ type: 'connectionState', state: { baseUrl: 'http://gw', keySource: 'secretStorage' } });
  });

  const meter = (): HTMLElement => root.querySelector('.context-meter') as HTMLElement;

  it('formats counts compactly', () => {
    assert.equal(compactCount(950), '950');
    assert.equal(compactCount(12_345), '12.3k');
    assert.equal(compactCount(128_000), '128k');
    assert.equal(compactCount(2048), '2k');
    assert.equal(compactCount(1_000_000), '1M');
  });

  it('shows used / limit with a bar, an accessible name, and whether it is measured; warns near the limit', () => {
    assert.equal(meter().hidden, true, 'hidden until the host says');
    app.handle({
      type: 'contextMeter',
      meter: { usedTokens: 12_300, contextLength: 128_000, source: 'measured', files: [] },
    });
    assert.equal(meter().hidden, false);
    assert.equal(meter().querySelector('.context-meter-text')?.textContent, '12.3k / 128k');
    assert.equal(meter().getAttribute('aria-label'), 'Context: 12,300 of 128,000 tokens used');
    assert.equal(meter().getAttribute('role'), 'meter');
    assert.match(meter().title, /measured/);
    assert.equal((meter().querySelector('.context-meter-fill') as HTMLElement).style.width, '9.6%');
    assert.equal(meter().classList.contains('warning'), false);
    app.handle({
      type: 'contextMeter',
      meter: { usedTokens: 1800, contextLength: 2048, source: 'estimated', files: [] },
    });
    assert.equal(meter().classList.contains('warning'), true);
    assert.equal(meter().classList.contains('estimated'), true);
    assert.match(meter().title, /estimated/);
  });

  it('says so when the context length is unknown, inventing no figure', () => {
    app.handle({ type: 'contextMeter', meter: { usedTokens: 500, source: 'estimated', files: [] } });
    assert.equal(meter().querySelector('.context-meter-text')?.textContent, '500 / ?');
    assert.match(meter().getAttribute('aria-label') ?? '', /context length is unknown/);
    assert.equal(meter().getAttribute('aria-valuemax'), null);
  });

  it('shows instruction files as chips that ask the host to open them', () => {
    app.handle({
      type: 'contextMeter',
      meter: {
        usedTokens: 500,
        contextLength: 2048,
        source: 'estimated',
        files: [
          { path: 'pkg/.github/copilot-instructions.md', tokens: 120, truncated: false },
          { path: 'AGENTS.md', tokens: 40, truncated: true },
        ],
      },
    });
    const chips = [...root.querySelectorAll('.instruction-chip')] as HTMLButtonElement[];
    assert.deepEqual(
      chips.map((chip) => chip.textContent),
      ['copilot-instructions.md', 'AGENTS.md'],
    );
    assert.match(
      chips[1]?.getAttribute('aria-label') ?? '',
      /^Instructions from AGENTS\.md, added to the system prompt \(about 40 tokens, cut to 32 KB\)/,
    );
    chips[0]?.click();
    assert.deepEqual(sent.at(-1), { type: 'openInstructionFile', path: 'pkg/.github/copilot-instructions.md' });
    assert.deepEqual(parseChatToHostMessage({ type: 'openInstructionFile', path: 'AGENTS.md' }), {
      type: 'openInstructionFile',
      path: 'AGENTS.md',
    });
    assert.equal(parseChatToHostMessage({ type: 'openInstructionFile', path: 7 }), undefined);
  });

  it('shows a summary as a collapsed, readable block, and the other notes, live and from history', () => {
    const summarized = reply({
      context: { summary: { text: 'The user set up <b>CI</b>.', throughTurnId: 'u3', turns: 4 }, trimmedResults: 2 },
    });
    app.handle({
      type: 'conversation',
      conversation: conversation([{ role: 'user', id: 'u0', text: 'hi', attachments: [], createdAt: 0 }, summarized]),
      busy: false,
    });
    const details = root.querySelector('.context-summary') as HTMLDetailsElement;
    assert.ok(details);
    assert.equal(details.open, false);
    assert.match(details.querySelector('summary')?.textContent ?? '', /Earlier turns summarized \(the first 4\)/);
    assert.equal(
      details.querySelector('.context-summary-text')?.textContent,
      'The user set up <b>CI</b>.',
      'model output as text',
    );
    assert.equal(root.querySelector('.context-summary-text b'), null);
    assert.match(root.querySelector('.context-note')?.textContent ?? '', /2 long tool results were trimmed/);
    app.handle({
      type: 'replyContext',
      id: 'a1',
      context: { dropped: { throughTurnId: 'u3', turns: 4, reason: 'the summary request failed: 500' }, retried: true },
    });
    const note = root.querySelector('.context-note')?.textContent ?? '';
    assert.match(note, /The first 4 turns were left out of the request .* They are still here\./);
    assert.match(note, /compacted further and sent again/);
    assert.equal(root.querySelector('.context-summary'), null);
  });

  it("keeps a reply's context through the history store's shape check, and drops a malformed one", () => {
    const stored = conversation([
      reply({
        context: {
          usedTokens: 1900,
          contextLength: 2048,
          tokensPerChar: 0.4,
          summary: { text: 's', throughTurnId: 'u1', turns: 2 },
          trimmedMessageChars: 10,
          retried: true,
        },
      }),
    ]);
    const parsed = parseConversation(JSON.parse(JSON.stringify(stored)), 'c1');
    assert.notEqual(typeof parsed, 'string');
    assert.deepEqual((parsed as Conversation).turns[0], stored.turns[0]);
    const bad = JSON.parse(JSON.stringify(stored)) as { turns: { context: unknown }[] };
    (bad.turns[0] as { context: unknown }).context = {
      summary: { text: 5, throughTurnId: 'u1', turns: 2 },
      usedTokens: -3,
      tokensPerChar: 50,
    };
    const cleaned = parseConversation(bad, 'c1') as Conversation;
    assert.equal((cleaned.turns[0] as AssistantTurn).context, undefined);
    assert.equal('context' in (cleaned.turns[0] as AssistantTurn), false);
  });
});
