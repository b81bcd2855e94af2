// The chat webview's app in jsdom: what each host message does to the DOM, and what the user's
// keys and clicks send back. Streaming must touch only the reply being written.
import * as assert from 'node:assert/strict';
import { useWebviewPage } from './webviewPage';
import type { AssistantTurn, Conversation, UserTurn } from '../../src/shared/chatModel';
import type { ChatToHostMessage, HostToChatMessage } from '../../src/shared/chatProtocol';
import { ChatApp } from '../../src/webview/chat/chatApp';

const user = (id: string, text: string): UserTurn => ({
  role: 'user',
  id,
  text,
  attachments: [],
  createdAt: Date.parse('2026-11-23T10:00:00Z'),
});
const assistant = (id: string, content: string, extra: Partial<AssistantTurn> = {}): AssistantTurn => ({
  role: 'assistant',
  id,
  model: 'sim/model',
  content,
  reasoning: '',
  toolSteps: [],
  status: 'done',
  wire: [],
  createdAt: 0,
  ...extra,
});
const conversation = (turns: Conversation['turns']): Conversation => ({
  id: 'c1',
  title: 'A title',
  model: 'sim/model',
  parameters: {},
  turns,
  createdAt: 0,
  updatedAt: 0,
});

describe('chat webview app (jsdom)', () => {
  let root: HTMLElement;
  let sent: ChatToHostMessage[];
  let app: ChatApp;
  const page = useWebviewPage();

  beforeEach(() => {
    root = page.root;
    sent = [];
    // Cards armed at once here: arming and the keyboard rules are approvalCard.test.ts's.
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
  const frame = (): Promise<void> => new Promise((resolve) => page.dom.window.requestAnimationFrame(() => resolve()));
  const key = (target: Element, keyName: string, init: KeyboardEventInit = {}): void => {
    target.dispatchEvent(
      new page.dom.window.KeyboardEvent('keydown', { key: keyName, bubbles: true, cancelable: true, ...init }),
    );
  };
  const input = (): HTMLTextAreaElement => root.querySelector('.composer-input') as HTMLTextAreaElement;

  it('renders an opened conversation; user text stays text, never HTML', async () => {
    handle({
      type: 'conversation',
      conversation: conversation([
        user('u1', '<img src=x onerror=alert(1)> hi'),
        assistant('a1', '# Answer\n\nSome **bold** text.'),
      ]),
      busy: false,
    });
    await frame();
    assert.equal(root.querySelector('.turn.user .user-text')?.textContent, '<img src=x onerror=alert(1)> hi');
    assert.equal(root.querySelector('.turn.user img'), null);
    assert.equal(root.querySelector('.turn.assistant .content h1')?.textContent, 'Answer');
    assert.equal(root.querySelector('.conversation-title')?.textContent, 'A title');
    assert.notEqual(page.dom.window.document.activeElement, input(), 'a page that loads does not take the focus');
    handle({ type: 'prefill', text: 'Explain this code.' });
    assert.equal(
      page.dom.window.document.activeElement,
      input(),
      'the user asked (Ask about Selection): the box takes it',
    );
  });

  it('streams deltas into the reply being written only, and marks it busy until it ends', async () => {
    handle({
      type: 'conversation',
      conversation: conversation([user('u1', 'q'), assistant('a1', 'old reply')]),
      busy: false,
    });
    await frame();
    const oldReply = root.querySelector('[data-turn-id="a1"] .content')?.firstElementChild;
    handle({ type: 'userTurn', turn: user('u2', 'next') });
    handle({ type: 'replyStarted', turn: assistant('a2', '', { status: 'streaming' }) });
    assert.equal(root.querySelector('.messages')?.getAttribute('aria-busy'), 'true');
    assert.equal((root.querySelector('button[aria-label="Stop"]') as HTMLButtonElement).hidden, false);
    for (const piece of ['Hello ', 'streaming ', 'world']) handle({ type: 'replyDelta', id: 'a2', content: piece });
    handle({ type: 'replyDelta', id: 'a2', reasoning: 'thinking it over' });
    await frame();
    await frame();
    assert.match(root.querySelector('[data-turn-id="a2"] .content')?.textContent ?? '', /Hello streaming world/);
    assert.equal(root.querySelector('[data-turn-id="a2"] .reasoning-text')?.textContent, 'thinking it over');
    assert.equal(
      (root.querySelector('[data-turn-id="a2"] details.reasoning') as HTMLDetailsElement).open,
      false,
      'reasoning collapsed',
    );
    assert.equal(
      root.querySelector('[data-turn-id="a1"] .content')?.firstElementChild,
      oldReply,
      'the earlier reply was not re-rendered',
    );
    handle({ type: 'replyEnded', id: 'a2', status: 'done', usage: { promptTokens: 12, completionTokens: 34 } });
    assert.equal(root.querySelector('.messages')?.getAttribute('aria-busy'), 'false');
    assert.match(
      root.querySelector('[data-turn-id="a2"] .usage')?.textContent ?? '',
      /12 prompt \+ 34 completion tokens/,
    );
    const usage = (): string => root.querySelector('[data-turn-id="a2"] .usage')?.textContent ?? '';
    handle({ type: 'replyCost', id: 'a2', cost: { credits: 0, estimate: false, state: 'pending' } });
    assert.match(usage(), /· cost pending \(waiting for the balance to change\)$/);
    handle({ type: 'replyCost', id: 'a2', cost: { credits: 0.0012, estimate: true, source: 'balance' } });
    assert.match(usage(), /≈ \$0\.0012 \(balance change, estimate: other requests overlapped\)$/);
    assert.doesNotMatch(usage(), /pending/, 'the settled cost replaces "pending"');
    handle({ type: 'replyCost', id: 'a2', cost: { credits: 0.00002, estimate: false, source: 'pricing' } });
    assert.match(usage(), /< \$0\.0001 \(from pricing\)$/, 'a tiny cost is not shown as nothing');
    handle({ type: 'replyCost', id: 'a2', cost: { credits: 0.0012, estimate: false } });
    assert.match(
      usage(),
      /\$0\.0012 \(balance change\)$/,
      'a cost saved before sources were told apart was a balance difference',
    );
    handle({ type: 'replyCost', id: 'a2', cost: { credits: 0, estimate: false, source: 'balance' } });
    assert.match(usage(), /no charge seen \(balance unchanged\)$/);
    handle({ type: 'replyCost', id: 'a2', cost: { credits: 0, estimate: false, state: 'unknown' } });
    assert.match(usage(), /cost unknown/);
  });

  it('shows an error with its actions; the actions go to the host', () => {
    handle({ type: 'conversation', conversation: conversation([user('u1', 'q')]), busy: false });
    handle({ type: 'replyStarted', turn: assistant('a1', '', { status: 'streaming' }) });
    handle({ type: 'replyDelta', id: 'a1', content: 'partial' });
    handle({
      type: 'replyEnded',
      id: 'a1',
      status: 'error',
      error: { kind: 'auth', message: 'The gateway refused the API key', actions: ['setApiKey', 'retry'] },
    });
    const box = root.querySelector('[data-turn-id="a1"] .error-box') as HTMLElement;
    assert.equal(box.hidden, false);
    assert.match(box.textContent ?? '', /refused the API key/);
    const buttons = Array.from(box.querySelectorAll('button'));
    assert.deepEqual(
      buttons.map((b) => b.textContent),
      ['Set API Key', 'Retry'],
    );
    buttons[1]?.click();
    assert.deepEqual(sent.at(-1), { type: 'errorAction', action: 'retry' });
    assert.equal(root.querySelector('[data-turn-id="a1"] .badge')?.textContent, 'failed');
  });

  it('asks for tool approval with buttons and sends the decision', () => {
    handle({ type: 'conversation', conversation: conversation([user('u1', 'q')]), busy: false });
    handle({ type: 'replyStarted', turn: assistant('a1', '', { status: 'streaming' }) });
    handle({
      type: 'toolStep',
      id: 'a1',
      index: 0,
      step: {
        kind: 'function',
        id: 'call-1',
        name: 'read_file',
        arguments: '{"path":"a.ts"}',
        status: 'awaitingApproval',
      },
    });
    const allow = Array.from(root.querySelectorAll('.approval button')).find(
      (b) => b.textContent === 'Allow for This Conversation',
    ) as HTMLButtonElement;
    allow.click();
    assert.deepEqual(sent.at(-1), { type: 'approveTool', callId: 'call-1', decision: 'always' });
    handle({
      type: 'toolStep',
      id: 'a1',
      index: 0,
      step: { kind: 'function', id: 'call-1', name: 'read_file', arguments: '{}', status: 'done', result: 'file text' },
    });
    assert.equal(root.querySelectorAll('.tool-step').length, 1, 'the step was updated in place');
    assert.equal(root.querySelector('.tool-step .approval'), null);
    handle({
      type: 'toolStep',
      id: 'a1',
      index: 1,
      step: { kind: 'server', name: 'sim_search', server: 'https://tools' },
    });
    assert.match(root.querySelectorAll('.tool-step')[1]?.textContent ?? '', /sim_search.*ran on https:\/\/tools/);
  });

  it('names the sensitive files of a tool call and offers no standing permission for it', () => {
    handle({ type: 'conversation', conversation: conversation([user('u1', 'q')]), busy: false });
    handle({ type: 'replyStarted', turn: assistant('a1', '', { status: 'streaming' }) });
    handle({
      type: 'toolStep',
      id: 'a1',
      index: 0,
      step: {
        kind: 'function',
        id: 'call-2',
        name: 'read_file',
        arguments: '{"path":"config.txt"}',
        status: 'awaitingApproval',
        sensitive: ['.env'],
      },
    });
    const step = root.querySelector('.tool-step.sensitive');
    assert.match(step?.querySelector('.sensitive-note')?.textContent ?? '', /Sensitive file.*\.env/);
    const group = step?.querySelector('.approval');
    assert.equal(group?.getAttribute('aria-label'), 'Allow read_file to read the sensitive file .env?');
    assert.deepEqual(
      Array.from(group?.querySelectorAll('button') ?? []).map((b) => b.textContent),
      ['Allow Once', 'Deny'],
    );
    handle({
      type: 'toolStep',
      id: 'a1',
      index: 0,
      step: {
        kind: 'function',
        id: 'call-2',
        name: 'read_file',
        arguments: '{}',
        status: 'done',
        sensitive: ['.env'],
        result: 'x',
      },
    });
    assert.match(
      root.querySelector('.tool-step .sensitive-note')?.textContent ?? '',
      /\.env/,
      'still named once decided',
    );
  });

  it('says why an edit of a file that can run code is asked (even with auto-approve), and offers no standing permission for it', () => {
    handle({ type: 'conversation', conversation: conversation([user('u1', 'q')]), busy: false });
    handle({ type: 'replyStarted', turn: assistant('a1', '', { status: 'streaming' }) });
    const change = {
      files: [{ action: 'create' as const, path: '.vscode/tasks.json' }],
      diff: '--- /dev/null\n+++ b/.vscode/tasks.json\n@@ -0,0 +1 @@\n+{}',
      added: 1,
      removed: 0,
    };
    const guarded = [
      { path: '.vscode/tasks.json', reason: 'runsCode' as const },
      { path: 'AGENTS.md', reason: 'instructsModel' as const },
      { path: '.gitignore', reason: 'changesReads' as const },
      { path: 'b.ts', reason: 'otherNames' as const },
    ];
    handle({
      type: 'toolStep',
      id: 'a1',
      index: 0,
      step: {
        kind: 'function',
        id: 'call-g',
        name: 'create_file',
        arguments: '{}',
        status: 'awaitingApproval',
        change,
        guarded,
      },
    });
    const step = root.querySelector('.tool-step');
    assert.equal(
      step?.querySelector('.guarded-note')?.textContent,
      'Always asked: .vscode/tasks.json (this file can run code), AGENTS.md (this file can instruct the model), .gitignore (this file decides what the model may read), b.ts (this file may run code under another name, a hard link or a link not checked)',
    );
    const group = step?.querySelector('.approval');
    assert.match(
      group?.getAttribute('aria-label') ?? '',
      /\.vscode\/tasks\.json can run code, AGENTS\.md can instruct the model, \.gitignore decides what the model may read, b\.ts may run code under another name/,
    );
    assert.deepEqual(
      Array.from(group?.querySelectorAll('button') ?? []).map((b) => b.textContent),
      ['Allow Once', 'Deny'],
    );
    handle({
      type: 'toolStep',
      id: 'a1',
      index: 0,
      step: {
        kind: 'function',
        id: 'call-g',
        name: 'create_file',
        arguments: '{}',
        status: 'done',
        change,
        guarded,
        result: 'Created',
      },
    });
    assert.match(
      root.querySelector('.tool-step .guarded-note')?.textContent ?? '',
      /can run code/,
      'still said once decided',
    );
  });

  it("shows an edit call's change as a diff (text, signs kept, lines classed for the diff colours) with Open Diff", () => {
    handle({ type: 'conversation', conversation: conversation([user('u1', 'q')]), busy: false });
    handle({ type: 'replyStarted', turn: assistant('a1', '', { status: 'streaming' }) });
    const change = {
      files: [{ action: 'modify' as const, path: 'src/a.ts' }],
      diff: '--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1,2 +1,2 @@\n keep\n-<b>old</b>\n+new',
      added: 1,
      removed: 1,
    };
    handle({
      type: 'toolStep',
      id: 'a1',
      index: 0,
      step: {
        kind: 'function',
        id: 'call-e',
        name: 'replace_in_file',
        arguments: '{}',
        status: 'awaitingApproval',
        change,
      },
    });
    const step = root.querySelector('.tool-step');
    const diff = step?.querySelector('.tool-change .diff');
    assert.equal(diff?.getAttribute('aria-label'), 'Diff: Edit src/a.ts: 1 line added, 1 removed');
    assert.deepEqual(
      Array.from(diff?.querySelectorAll('.diff-removed') ?? []).map((n) => n.textContent),
      ['-<b>old</b>\n'],
      'model text stays text',
    );
    assert.deepEqual(
      Array.from(diff?.querySelectorAll('.diff-added') ?? []).map((n) => n.textContent),
      ['+new\n'],
    );
    assert.equal(diff?.querySelector('b'), null);
    assert.equal(
      step?.querySelector('.approval')?.getAttribute('aria-label'),
      'Allow replace_in_file (Edit src/a.ts: 1 line added, 1 removed)?',
    );
    assert.deepEqual(
      Array.from(step?.querySelectorAll('.approval button') ?? []).map((b) => b.textContent),
      ['Allow Once', 'Allow for This Conversation', 'Deny'],
    );
    const open = Array.from(step?.querySelectorAll('button') ?? []).find(
      (b) => b.textContent === 'Open Diff',
    ) as HTMLButtonElement;
    open.click();
    assert.deepEqual(sent.at(-1), { type: 'openToolDiff', callId: 'call-e' });
  });

  it('shows a terminal command verbatim with its folder, and offers only Allow Once or Deny', () => {
    handle({ type: 'conversation', conversation: conversation([user('u1', 'q')]), busy: false });
    handle({ type: 'replyStarted', turn: assistant('a1', '', { status: 'streaming' }) });
    handle({
      type: 'toolStep',
      id: 'a1',
      index: 0,
      step: {
        kind: 'function',
        id: 'call-c',
        name: 'run_command',
        arguments: '{}',
        status: 'awaitingApproval',
        command: { command: 'npm test && rm -rf "$HOME/x"', cwd: 'pkg' },
      },
    });
    const step = root.querySelector('.tool-step');
    assert.equal(step?.querySelector('.command-line')?.textContent, 'npm test && rm -rf "$HOME/x"');
    assert.equal(step?.querySelector('.command-cwd')?.textContent, 'In pkg:');
    assert.deepEqual(
      Array.from(step?.querySelectorAll('.approval button') ?? []).map((b) => b.textContent),
      ['Allow Once', 'Deny'],
    );
  });

  it("states a call's cost on its card (building the index, a research job), offers only Allow Once or Deny, and links the job it started", () => {
    handle({ type: 'conversation', conversation: conversation([user('u1', 'q')]), busy: false });
    handle({ type: 'replyStarted', turn: assistant('a1', '', { status: 'streaming' }) });
    const notice = 'Start a deep research job on "<b>x</b>"? A research job costs credits (cost set by the gateway).';
    const step = {
      kind: 'function' as const,
      id: 'call-r',
      name: 'deep_research',
      arguments: '{"topic":"x"}',
      status: 'awaitingApproval' as const,
      notice,
    };
    handle({ type: 'toolStep', id: 'a1', index: 0, step });
    const card = root.querySelector('.tool-step');
    assert.equal(card?.querySelector('.cost-note')?.textContent, notice, 'the notice is text, never HTML');
    assert.equal(card?.querySelector('.cost-note b'), null);
    assert.equal(card?.querySelector('.approval')?.getAttribute('aria-label'), `deep_research: ${notice}`);
    assert.deepEqual(
      Array.from(card?.querySelectorAll('.approval button') ?? []).map((b) => b.textContent),
      ['Allow Once', 'Deny'],
    );
    handle({ type: 'toolStep', id: 'a1', index: 0, step: { ...step, status: 'done', researchJobId: 'job-7' } });
    const open = Array.from(root.querySelectorAll('.tool-step button')).find(
      (b) => b.textContent === 'Open Research Job',
    );
    assert.ok(open, 'the finished step links its job');
    (open as HTMLButtonElement).click();
    assert.deepEqual(sent.at(-1), { type: 'openResearchJob', jobId: 'job-7' });
  });

  it('keyboard: Enter sends, Shift+Enter does not, Escape stops, Up edits the last message', () => {
    handle({
      type: 'conversation',
      conversation: conversation([user('u1', 'first'), assistant('a1', 'answer')]),
      busy: false,
    });
    const box = input();
    box.value = 'hello';
    key(box, 'Enter', { shiftKey: true });
    assert.equal(sent.filter((m) => m.type === 'send').length, 0);
    key(box, 'Enter');
    assert.deepEqual(sent.at(-1), { type: 'send', text: 'hello' });
    assert.equal(box.value, '');
    handle({ type: 'replyStarted', turn: assistant('a2', '', { status: 'streaming' }) });
    key(box, 'Escape');
    assert.deepEqual(sent.at(-1), { type: 'stop' });
    handle({ type: 'replyEnded', id: 'a2', status: 'stopped' });
    key(box, 'ArrowUp');
    const editor = root.querySelector('.turn.user textarea.edit-box') as HTMLTextAreaElement;
    assert.equal(editor.value, 'first');
    editor.value = 'changed';
    key(editor, 'Enter');
    assert.deepEqual(sent.at(-1), { type: 'editAndResend', turnId: 'u1', text: 'changed' });
  });

  it('keyboard: Ctrl+L (Cmd+L) starts a new chat wherever the focus is in the chat, and goes no further', () => {
    const box = input();
    const ctrlL = new page.dom.window.KeyboardEvent('keydown', {
      key: 'l',
      ctrlKey: true,
      bubbles: true,
      cancelable: true,
    });
    box.dispatchEvent(ctrlL);
    assert.deepEqual(sent.at(-1), { type: 'newConversation' });
    assert.ok(ctrlL.defaultPrevented, 'the webview does not pass the key on (VS Code would run its own Ctrl+L)');
    sent.length = 0;
    key(box, 'L', { metaKey: true });
    assert.deepEqual(sent, [{ type: 'newConversation' }], 'Cmd+L on macOS');
    sent.length = 0;
    for (const init of [
      { ctrlKey: true, shiftKey: true },
      { ctrlKey: true, altKey: true },
      {},
      { ctrlKey: true, metaKey: true },
    ])
      key(box, 'l', init);
    assert.deepEqual(sent, [], 'other chords with L are not the shortcut');
  });

  it('marks the replies the host restored: "Restored" in the footer and on each change card', () => {
    const edit = {
      kind: 'function' as const,
      id: 'call1',
      name: 'edit_file',
      arguments: '{}',
      status: 'done' as const,
      change: {
        files: [{ action: 'modify' as const, path: 'src/a.ts' }],
        diff: '@@ -1 +1 @@\n-a\n+b\n',
        added: 1,
        removed: 1,
      },
    };
    handle({
      type: 'conversation',
      conversation: conversation([user('u1', 'q'), assistant('a1', 'changed', { toolSteps: [edit] })]),
      busy: false,
    });
    const turn = (): Element | null => root.querySelector('[data-turn-id="a1"]');
    handle({ type: 'checkpoints', turnIds: ['a1'], restored: [] });
    assert.equal(turn()?.querySelector('.restored-note'), null);
    handle({ type: 'checkpoints', turnIds: ['a1'], restored: ['a1'] });
    assert.equal(turn()?.querySelector('.turn-footer .restored-note')?.textContent, 'Restored');
    assert.equal(turn()?.querySelector('.tool-change .restored-badge')?.textContent, 'Restored');
    handle({ type: 'checkpoints', turnIds: ['a1'], restored: [] });
    assert.equal(turn()?.querySelectorAll('.restored-badge, .restored-note').length, 0, 'taken back with the state');
  });

  it('shows a notice from the host in place, with its button (Undo) answering with its id', () => {
    handle({ type: 'notice', notice: { id: 7, text: 'Deleted "First".', severity: 'info', action: 'Undo' } });
    const notice = root.querySelector('.notice[role="status"]') as HTMLElement;
    assert.equal(notice.hidden, false);
    assert.match(notice.textContent ?? '', /Deleted "First"\./);
    const undo = Array.from(notice.querySelectorAll('button')).find((b) => b.textContent === 'Undo');
    undo?.click();
    assert.deepEqual(sent.at(-1), { type: 'noticeAction', id: 7 });
    assert.equal(notice.hidden, true, 'gone once acted on');
    handle({ type: 'notice', notice: { id: 8, text: '<b>not markup</b>', severity: 'warning' } });
    assert.equal(notice.querySelector('b'), null, 'text, never HTML');
    (notice.querySelector('button[aria-label="Dismiss"]') as HTMLButtonElement).click();
    assert.equal(notice.hidden, true);
  });

  it("gives the composer's context buttons icons that say what they add (a file, not a magnifier)", () => {
    const iconOf = (label: string): string | undefined =>
      root.querySelector(`.composer button[aria-label="${label}"] .codicon`)?.className;
    assert.equal(iconOf('Add selection'), 'codicon codicon-selection');
    assert.equal(iconOf('Add active file'), 'codicon codicon-file');
    assert.equal(iconOf('Add a workspace file…'), 'codicon codicon-file-add');
  });

  it('puts a check mark on Copy reply when clicked', () => {
    handle({
      type: 'conversation',
      conversation: conversation([user('u1', 'q'), assistant('a1', 'answer')]),
      busy: false,
    });
    const copy = root.querySelector('[data-turn-id="a1"] button[aria-label="Copy reply"]') as HTMLButtonElement;
    copy.click();
    assert.deepEqual(sent.at(-1), { type: 'copyText', text: 'answer' });
    assert.ok(copy.querySelector('.codicon-check'), 'the check mark');
    assert.equal(copy.getAttribute('aria-label'), 'Copied');
  });

  it('suggests workspace files after @ and attaches the chosen one', () => {
    handle({ type: 'conversation', conversation: conversation([]), busy: false });
    const box = input();
    box.value = 'look at @ap';
    box.setSelectionRange(box.value.length, box.value.length);
    box.dispatchEvent(new page.dom.window.Event('input'));
    const request = sent.at(-1);
    assert.equal(request?.type, 'suggestFiles');
    const requestId = request?.type === 'suggestFiles' ? request.requestId : -1;
    assert.equal(request?.type === 'suggestFiles' ? request.query : '', 'ap');
    handle({ type: 'fileSuggestions', requestId, paths: ['src/app.ts', 'src/api.ts'] });
    assert.equal((root.querySelector('.suggestions') as HTMLElement).hidden, false);
    key(box, 'ArrowDown');
    key(box, 'Enter');
    assert.deepEqual(sent.at(-1), { type: 'attachFile', path: 'src/api.ts' });
    assert.equal(box.value, 'look at ');
    handle({ type: 'attachments', attachments: [{ id: 'x', kind: 'file', path: 'src/api.ts', text: '...' }] });
    (root.querySelector('.composer .chip button') as HTMLButtonElement).click();
    assert.deepEqual(sent.at(-1), { type: 'removeAttachment', id: 'x' });
  });

  it('suggests @codebase and @research before the files, and completes the word in the text (nothing attached yet)', () => {
    handle({ type: 'conversation', conversation: conversation([]), busy: false });
    const box = input();
    box.value = 'where is @co';
    box.setSelectionRange(box.value.length, box.value.length);
    box.dispatchEvent(new page.dom.window.Event('input'));
    const request = sent.at(-1);
    const requestId = request?.type === 'suggestFiles' ? request.requestId : -1;
    handle({ type: 'fileSuggestions', requestId, paths: ['src/config.ts'] });
    const items = Array.from(root.querySelectorAll('.suggestions li')).map((li) => li.textContent);
    assert.equal(items.length, 2);
    assert.match(items[0] ?? '', /^@codebase search the workspace by meaning/);
    assert.equal(items[1], 'src/config.ts');
    const before = sent.length;
    key(box, 'Enter');
    assert.equal(box.value, 'where is @codebase ');
    assert.equal(sent.length, before, 'nothing sent or attached: the host reads the word when the message goes');
    assert.equal((root.querySelector('.suggestions') as HTMLElement).hidden, true);
    // "@r" lists @research; a plain word after @ lists files only.
    box.value = '@r';
    box.dispatchEvent(new page.dom.window.Event('input'));
    const again = sent.at(-1);
    handle({ type: 'fileSuggestions', requestId: again?.type === 'suggestFiles' ? again.requestId : -1, paths: [] });
    assert.match(root.querySelector('.suggestions li')?.textContent ?? '', /^@research/);
  });

  it('removes turns from an edited point on, and lists history with its actions', () => {
    handle({
      type: 'conversation',
      conversation: conversation([user('u1', 'a'), assistant('a1', 'b'), user('u2', 'c'), assistant('a2', 'd')]),
      busy: false,
    });
    handle({ type: 'turnsRemoved', fromId: 'u2' });
    assert.deepEqual(
      Array.from(root.querySelectorAll('.turn'), (t) => t.getAttribute('data-turn-id')),
      ['u1', 'a1'],
    );
    handle({
      type: 'history',
      conversations: [{ id: 'c1', title: 'First', model: 'm', updatedAt: 0, turnCount: 2 }],
      query: '',
    });
    (root.querySelector('.history-item .history-open') as HTMLButtonElement).click();
    assert.deepEqual(sent.at(-1), { type: 'openConversation', id: 'c1' });
    (root.querySelector('button[aria-label="Delete First"]') as HTMLButtonElement).click();
    assert.deepEqual(sent.at(-1), { type: 'deleteConversation', id: 'c1' });
  });

  it('offers "Restore files to before this reply" on the replies the host says have a checkpoint, once they ended', () => {
    handle({
      type: 'conversation',
      conversation: conversation([
        user('u1', 'q'),
        assistant('a1', 'changed a file'),
        user('u2', 'q2'),
        assistant('a2', 'no files'),
      ]),
      busy: false,
    });
    const restoreButton = (id: string): HTMLButtonElement | null =>
      root.querySelector(`[data-turn-id="${id}"] button.restore-checkpoint`);
    assert.equal(restoreButton('a1'), null);
    handle({ type: 'checkpoints', turnIds: ['a1'], restored: [] });
    const button = restoreButton('a1');
    assert.ok(button, 'shown after the host names the turn');
    assert.equal(button.getAttribute('aria-label'), 'Restore checkpoint');
    assert.equal(button.textContent, 'Restore checkpoint', 'a labelled button, not an icon alone');
    assert.ok(button.querySelector('.codicon-discard'));
    assert.equal(restoreButton('a2'), null);
    button.click();
    assert.deepEqual(sent.at(-1), { type: 'restoreCheckpoint', turnId: 'a1' });
    handle({ type: 'replyStarted', turn: assistant('a3', '', { status: 'streaming' }) });
    handle({ type: 'checkpoints', turnIds: ['a1', 'a3'], restored: [] });
    assert.equal(restoreButton('a3'), null, 'not while the reply is still being written');
    handle({ type: 'replyEnded', id: 'a3', status: 'done' });
    assert.ok(restoreButton('a3'));
    handle({
      type: 'conversation',
      conversation: { ...conversation([user('u9', 'q'), assistant('a1', 'same id, other conversation')]), id: 'c2' },
      busy: false,
    });
    assert.equal(restoreButton('a1'), null, 'another conversation starts without checkpoints until the host says');
  });
});
