// A reply's sources in the chat webview (jsdom): a numbered list under the reply, in history and
// when a streamed reply ends; links open through the host, never in the webview; titles stay text.
import * as assert from 'node:assert/strict';
import { useWebviewPage } from './webviewPage';
import type { AssistantTurn, Conversation } from '../../src/shared/chatModel';
import type { ChatToHostMessage } from '../../src/shared/chatProtocol';
import { ChatApp } from '../../src/webview/chat/chatApp';

const reply = (extra: Partial<AssistantTurn> = {}): AssistantTurn => ({
  role: 'assistant',
  id: 'a1',
  model: 'sim/model',
  content: 'The answer.',
  reasoning: '',
  toolSteps: [],
  status: 'done',
  wire: [],
  createdAt: 0,
  ...extra,
});
const conversation = (turns: Conversation['turns']): Conversation => ({
  id: 'c1',
  title: 'T',
  model: 'sim/model',
  parameters: {},
  turns,
  createdAt: 0,
  updatedAt: 0,
});

describe('chat webview: reply sources (jsdom)', () => {
  const page = useWebviewPage();
  let sent: ChatToHostMessage[];
  let app: ChatApp;

  beforeEach(() => {
    sent = [];
    app = new ChatApp(
      page.root,
      (message) => sent.push(message),
      undefined,
      () => undefined,
    );
    app.handle({ type: 'connectionState', state: { baseUrl: 'http://gw', keySource: 'secretStorage' } });
  });

  const links = (): HTMLAnchorElement[] => Array.from(page.root.querySelectorAll('.turn.assistant .sources a'));

  it("lists a saved reply's sources under its text, numbered, titled (the host name without a title), the address in tooltip and label", () => {
    app.handle({
      type: 'conversation',
      conversation: conversation([
        reply({
          sources: [
            { url: 'https://a.example/page', title: 'Page <b>A</b> ](javascript:x)' },
            { url: 'https://docs.b.example/x?y=1' },
          ],
        }),
      ]),
      busy: false,
    });
    const turn = page.root.querySelector('.turn.assistant') as HTMLElement;
    const section = turn.querySelector('.sources') as HTMLElement;
    assert.ok(section, turn.innerHTML);
    // Under the reply's text, before its footer.
    const order = Array.from(turn.children).map((child) => child.className);
    assert.ok(order.indexOf('sources-box') > order.indexOf('content markdown'), order.join(' | '));
    assert.ok(order.indexOf('sources-box') < order.indexOf('turn-footer'), order.join(' | '));
    assert.equal(section.getAttribute('aria-label'), 'Sources');
    assert.ok(section.querySelector('.sources-title .codicon-link'));
    assert.equal(section.querySelector('ol')?.children.length, 2);
    const [first, second] = links();
    assert.equal(first?.textContent, 'Page <b>A</b> ](javascript:x)');
    assert.equal(first?.querySelector('b'), null, 'a title stays text');
    assert.equal(first?.getAttribute('href'), 'https://a.example/page');
    assert.equal(first?.title, 'https://a.example/page');
    assert.equal(first?.getAttribute('aria-label'), 'Page <b>A</b> ](javascript:x) (https://a.example/page)');
    assert.equal(second?.textContent, 'docs.b.example');
    // Keyboard reachable: a link with an href is in the tab order.
    assert.equal(second?.tabIndex, 0);
  });

  it('opens a source through the host on click and middle click; the webview never navigates', () => {
    app.handle({
      type: 'conversation',
      conversation: conversation([reply({ sources: [{ url: 'https://a.example/page', title: 'A' }] })]),
      busy: false,
    });
    const [link] = links();
    assert.ok(link);
    const click = new page.dom.window.MouseEvent('click', { bubbles: true, cancelable: true });
    link.dispatchEvent(click);
    assert.equal(click.defaultPrevented, true);
    const middle = new page.dom.window.MouseEvent('auxclick', { bubbles: true, cancelable: true, button: 1 });
    link.dispatchEvent(middle);
    assert.equal(middle.defaultPrevented, true);
    assert.deepEqual(
      sent.filter((m) => m.type === 'openLink'),
      [
        { type: 'openLink', href: 'https://a.example/page' },
        { type: 'openLink', href: 'https://a.example/page' },
      ],
    );
  });

  it('shows the sources of a streamed reply when it ends; links that are not http(s) never show', () => {
    app.handle({ type: 'replyStarted', turn: reply({ content: '', status: 'streaming' }) });
    assert.equal(links().length, 0);
    assert.equal((page.root.querySelector('.sources-box') as HTMLElement).hidden, true);
    app.handle({ type: 'replyDelta', id: 'a1', content: 'Cited text.' });
    app.handle({
      type: 'replyEnded',
      id: 'a1',
      status: 'done',
      sources: [
        { url: 'javascript:alert(1)', title: 'Script' },
        { url: 'file:///etc/passwd', title: 'File' },
        { url: 'https://ok.example/', title: 'OK' },
      ],
    });
    assert.deepEqual(
      links().map((a) => [a.textContent, a.getAttribute('href')]),
      [['OK', 'https://ok.example/']],
    );
    assert.equal((page.root.querySelector('.sources-box') as HTMLElement).hidden, false);
  });

  it('shows no list for a reply without sources, and a failed server step as failed with its arguments and result', () => {
    app.handle({
      type: 'conversation',
      conversation: conversation([
        reply({
          toolSteps: [
            {
              kind: 'server',
              name: 'web_search',
              arguments: '{"query":"q"}',
              result: 'The search failed: x',
              failed: true,
            },
            { kind: 'server', name: 'lookup', server: 'docs', arguments: '{}', result: 'ok' },
          ],
        }),
      ]),
      busy: false,
    });
    assert.equal(page.root.querySelector('.sources'), null);
    assert.equal((page.root.querySelector('.sources-box') as HTMLElement).hidden, true);
    const [failed, ran] = Array.from(page.root.querySelectorAll('.tool-step.server'));
    assert.ok(failed?.classList.contains('failed'));
    assert.ok(failed?.querySelector('.codicon-error'));
    assert.equal(failed?.querySelector('.step-status')?.textContent, 'failed on the gateway');
    assert.equal(failed?.querySelector('.step-args')?.textContent, '{"query":"q"}');
    assert.equal(failed?.querySelector('.step-result')?.textContent, 'The search failed: x');
    assert.equal(ran?.querySelector('.step-status')?.textContent, 'ran on docs');
    assert.ok(ran?.querySelector('.codicon-server-process'));
  });
});
