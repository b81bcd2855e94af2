// A reasoning model's reply in jsdom: while it thinks, the collapsed reasoning says "Thinking…"
// with the elapsed time and the latest thought, and ticks; once the answer starts it says how long
// it thought.
import * as assert from 'node:assert/strict';
import type { AssistantTurn } from '../../src/shared/chatModel';
import { AssistantTurnView } from '../../src/webview/chat/assistantTurnView';
import { useWebviewPage } from './webviewPage';

const streaming: AssistantTurn = {
  role: 'assistant',
  id: 'a1',
  model: 'sim/reasoner',
  content: '',
  reasoning: '',
  toolSteps: [],
  status: 'streaming',
  wire: [],
  createdAt: 0,
};

describe('reasoning summary while a model thinks (jsdom)', () => {
  const page = useWebviewPage();

  function reply(clock: { now: number }): { view: AssistantTurnView; label: () => string; latest: () => HTMLElement } {
    const view = new AssistantTurnView(
      streaming,
      () => undefined,
      { copy: () => undefined, insert: () => undefined, newFile: () => undefined, openLink: () => undefined },
      { now: () => clock.now },
    );
    page.root.replaceChildren(view.element);
    return {
      view,
      label: () => view.element.querySelector('.reasoning summary .reasoning-label')?.textContent ?? '',
      latest: () => view.element.querySelector('.reasoning summary .latest-thought') as HTMLElement,
    };
  }

  it('says Thinking with the elapsed time and the latest thought, then how long it thought', async () => {
    const clock = { now: 1_000_000 };
    const { view, label, latest } = reply(clock);
    view.append(undefined, 'First, read the question.\n');
    assert.equal(label(), 'Thinking… 0 s');
    assert.equal(latest().hidden, false);
    assert.equal(latest().textContent, 'First, read the question.');
    clock.now += 12_000;
    view.append(undefined, 'Then compare the two maps.');
    assert.equal(label(), 'Thinking… 12 s');
    assert.equal(latest().textContent, 'Then compare the two maps.', 'the latest line, not the first');
    // It ticks by itself while nothing arrives.
    clock.now += 3_000;
    await new Promise<void>((resolve) => {
      const check = (): void => (label() === 'Thinking… 15 s' ? resolve() : void page.dom.window.setTimeout(check, 50));
      check();
    });
    view.append('The answer', undefined);
    assert.equal(label(), 'Thought for 15 s');
    assert.equal(latest().hidden, true, 'the answer moves now: the thought goes back into the section');
    clock.now += 60_000;
    view.end('done');
    assert.equal(label(), 'Thought for 15 s', 'the time it thought, not the time the reply took');
  });

  it('says Reasoning for a stored reply, and for a reply that ends while it thinks, how long it thought', () => {
    const stored = new AssistantTurnView(
      { ...streaming, status: 'done', reasoning: 'old thoughts', content: 'answer' },
      () => undefined,
      { copy: () => undefined, insert: () => undefined, newFile: () => undefined, openLink: () => undefined },
    );
    assert.equal(stored.element.querySelector('.reasoning-label')?.textContent, 'Reasoning');
    const clock = { now: 0 };
    const { view, label } = reply(clock);
    view.append(undefined, 'thinking');
    clock.now = 4_000;
    view.end('stopped');
    assert.equal(label(), 'Thought for 4 s');
  });
});
