import * as assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import type { ChatWebviewCommand } from '../../src/shared/chatProtocol';
import { renderConnectionCard } from '../../src/webview/chat/connectionCard';

function render(
  baseUrl: string,
  keySource: 'secretStorage' | 'environment' | 'none',
): { root: HTMLElement; ran: ChatWebviewCommand[] } {
  const dom = new JSDOM('<main id="root"></main>');
  const root = dom.window.document.getElementById('root')!;
  const ran: ChatWebviewCommand[] = [];
  renderConnectionCard(root, { baseUrl, keySource }, (command) => ran.push(command));
  return { root, ran };
}

describe('chat webview: connection card', () => {
  it('offers the missing steps as buttons that send commands', () => {
    const { root, ran } = render('', 'none');
    const buttons = [...root.querySelectorAll('button')];
    assert.deepEqual(
      buttons.map((b) => b.textContent),
      ['Open Settings', 'Set API Key'],
    );
    buttons.forEach((b) => b.click());
    assert.deepEqual(ran, ['openSettings', 'setApiKey']);
  });

  it('shows completed steps without buttons', () => {
    const { root } = render('http://127.0.0.1:1234', 'environment');
    assert.equal(root.querySelectorAll('button').length, 0);
    assert.match(root.textContent ?? '', /Gateway: http:\/\/127\.0\.0\.1:1234/);
    assert.match(root.textContent ?? '', /API key set \(environment variable\)/);
  });

  it('renders a hostile base URL as text, never as markup', () => {
    const { root } = render('<img src=x onerror=alert(1)>', 'secretStorage');
    assert.equal(root.querySelector('img'), null);
    assert.match(root.textContent ?? '', /<img src=x onerror=alert\(1\)>/);
  });
});
