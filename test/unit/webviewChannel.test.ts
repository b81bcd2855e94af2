import * as assert from 'node:assert/strict';
import {
  outlivesChatState,
  parseChatToHostMessage,
  type ChatToHostMessage,
  type HostToChatMessage,
} from '../../src/shared/chatProtocol';
import {
  WebviewChannel,
  type ChannelWebview,
  type WebviewChannelOptions,
} from '../../src/extension/webview/webviewChannel';

type FromPage =
  { readonly type: 'ready' } | { readonly type: 'say'; readonly text: string } | { readonly type: 'fail' };
type ToPage = { readonly type: 'state'; readonly n: number } | { readonly type: 'note'; readonly text: string };

const SECRET = 'sk-or-v1-0123456789abcdef';

/** A webview as VS Code gives it, minus the page: what the host posts, and a way to say what the page sends. */
class FakeWebview implements ChannelWebview {
  readonly posted: unknown[] = [];
  private listener: ((raw: unknown) => void) | undefined;
  listening = false;

  postMessage(message: unknown): Thenable<boolean> {
    this.posted.push(message);
    return Promise.resolve(true);
  }

  readonly onDidReceiveMessage = (listener: (raw: unknown) => void): { dispose(): void } => {
    this.listener = listener;
    this.listening = true;
    return { dispose: () => (this.listening = false) };
  };

  /** The page's `postMessage`: delivered only while the host listens. */
  send(raw: unknown): void {
    if (this.listening) this.listener?.(raw);
  }
}

function parse(raw: unknown): FromPage | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const m = raw as Record<string, unknown>;
  if (m.type === 'ready' || m.type === 'fail') return { type: m.type };
  if (m.type === 'say' && typeof m.text === 'string') return { type: 'say', text: m.text };
  return undefined;
}

function harness(options: Partial<WebviewChannelOptions<FromPage, ToPage>> = {}) {
  const webview = new FakeWebview();
  const received: FromPage[] = [];
  const logged: string[] = [];
  const errors: unknown[] = [];
  const channel = new WebviewChannel<FromPage, ToPage>(webview, {
    name: 'test page',
    parse,
    receive: (message) => {
      received.push(message);
      if (message.type === 'fail') throw new Error('it broke');
    },
    redact: <T>(value: T): T => JSON.parse(JSON.stringify(value).split(SECRET).join('[redacted]')) as T,
    log: { warn: (line: string) => logged.push(`warn ${line}`), error: (line: string) => logged.push(`error ${line}`) },
    onError: (error) => errors.push(error),
    ...options,
  });
  return { webview, channel, received, logged, errors };
}

const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('webview channel', () => {
  it('holds what is posted before the page says ready, then sends it in order', async () => {
    const { webview, channel } = harness();
    channel.post({ type: 'state', n: 1 });
    channel.post({ type: 'note', text: 'two' });
    assert.deepEqual(webview.posted, [], 'nothing reaches a page whose script has not run');
    assert.equal(channel.isReady, false);
    webview.send({ type: 'ready' });
    await settle();
    channel.post({ type: 'state', n: 3 });
    assert.deepEqual(webview.posted, [
      { type: 'state', n: 1 },
      { type: 'note', text: 'two' },
      { type: 'state', n: 3 },
    ]);
  });

  it("sends the owner's answer to ready first, then only the held messages its state does not cover", async () => {
    const answered: ToPage[] = [];
    const { webview, channel } = harness({
      keepAfterReady: (message) => message.type === 'note',
      receive: (message) => {
        if (message.type !== 'ready') return;
        const state: ToPage = { type: 'state', n: 9 };
        answered.push(state);
        channel.post(state);
      },
    });
    channel.post({ type: 'state', n: 1 });
    channel.post({ type: 'note', text: 'keep me' });
    channel.post({ type: 'state', n: 2 });
    webview.send({ type: 'ready' });
    await settle();
    assert.deepEqual(webview.posted, [
      { type: 'state', n: 9 },
      { type: 'note', text: 'keep me' },
    ]);
    // A reloaded page says ready again: the owner answers again, nothing old is sent twice.
    webview.send({ type: 'ready' });
    await settle();
    assert.deepEqual(webview.posted, [
      { type: 'state', n: 9 },
      { type: 'note', text: 'keep me' },
      { type: 'state', n: 9 },
    ]);
  });

  it('hands valid messages to the owner and drops malformed or unknown ones, logging them without their contents', async () => {
    const { webview, received, logged } = harness();
    webview.send({ type: 'say', text: 'hello' });
    for (const bad of [
      null,
      'ready',
      42,
      {},
      { type: 'say', text: 7 },
      { type: 'runCommand', command: `evil ${SECRET}` },
    ])
      webview.send(bad);
    await settle();
    assert.deepEqual(received, [{ type: 'say', text: 'hello' }]);
    assert.equal(logged.length, 6);
    for (const line of logged)
      assert.equal(line, 'warn The test page sent a message that is not part of the protocol; ignored.');
  });

  it('logs and reports a message whose handling failed, and keeps going', async () => {
    const { webview, received, logged, errors } = harness();
    webview.send({ type: 'fail' });
    webview.send({ type: 'say', text: 'after' });
    await settle();
    assert.deepEqual(logged, ['error test page: handling "fail" failed: it broke']);
    assert.equal((errors[0] as Error).message, 'it broke');
    assert.deepEqual(received.at(-1), { type: 'say', text: 'after' });
  });

  it('redacts the API key from every message it posts, held ones included', async () => {
    const { webview, channel } = harness();
    channel.post({ type: 'note', text: `held ${SECRET}` });
    webview.send({ type: 'ready' });
    await settle();
    channel.post({ type: 'note', text: `live ${SECRET}` });
    assert.deepEqual(webview.posted, [
      { type: 'note', text: 'held [redacted]' },
      { type: 'note', text: 'live [redacted]' },
    ]);
    assert.ok(!JSON.stringify(webview.posted).includes(SECRET));
  });

  it('posts nothing and hears nothing once disposed, held messages included', async () => {
    const { webview, channel, received } = harness();
    channel.post({ type: 'state', n: 1 });
    channel.dispose();
    assert.equal(webview.listening, false, 'the page subscription is gone');
    await channel.receive({ type: 'ready' });
    channel.post({ type: 'state', n: 2 });
    await settle();
    assert.deepEqual(webview.posted, []);
    assert.deepEqual(received, []);
  });

  it('a chat page that loads late still gets "Ask about Selection"\'s prefill, after the state the controller answers ready with', async () => {
    const webview = new FakeWebview();
    const titled = (title: string): HostToChatMessage => ({ type: 'title', title });
    const channel = new WebviewChannel<ChatToHostMessage, HostToChatMessage>(webview, {
      name: 'chat',
      parse: parseChatToHostMessage,
      receive: (message) => {
        if (message.type === 'ready') channel.post(titled('fresh'));
      },
      redact: (value) => value,
      log: { warn: () => undefined, error: () => undefined },
      keepAfterReady: outlivesChatState,
    });
    // The view was revealed, its script has not run yet.
    channel.post(titled('stale'));
    channel.post({ type: 'attachments', attachments: [] });
    channel.post({ type: 'prefill', text: 'Explain this code.' });
    webview.send({ type: 'ready' });
    await settle();
    assert.deepEqual(webview.posted, [titled('fresh'), { type: 'prefill', text: 'Explain this code.' }]);
  });
});
