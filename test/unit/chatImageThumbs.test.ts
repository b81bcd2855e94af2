// Images in the chat webview (jsdom): the attach button and paste follow the selected model's
// catalog entry (a model without image input gets a note and nothing is sent), a pasted image
// goes to the host as base64, and thumbnails load from the images folder the host named, in the
// composer (removable) and on the user turn.
import * as assert from 'node:assert/strict';
import { useWebviewPage } from './webviewPage';
import { encodePng } from '../gateway/png';
import type { Conversation, ImageRef, UserTurn } from '../../src/shared/chatModel';
import type { ChatToHostMessage, HostToChatMessage } from '../../src/shared/chatProtocol';
import { ChatApp } from '../../src/webview/chat/chatApp';

const PNG = encodePng(2, 2, new Uint8Array(12).fill(40));
const ROOT = 'https://file+.vscode-resource.vscode-cdn.net/storage/conversationImages';
const ref: ImageRef = {
  id: '0123456789abcdef0123456789abcdef',
  mediaType: 'image/png',
  byteLength: 2048,
  sha256: `0123456789abcdef0123456789abcdef${'0'.repeat(32)}`,
  width: 2,
  height: 2,
  name: 'diagram.png',
};

describe('chat webview: images (jsdom)', () => {
  const page = useWebviewPage({ perTest: true });
  let sent: ChatToHostMessage[];
  let app: ChatApp;
  let root: HTMLElement;

  beforeEach(() => {
    (globalThis as Record<string, unknown>).FileReader = page.dom.window.FileReader;
    root = page.root;
    sent = [];
    app = new ChatApp(
      root,
      (message) => sent.push(message),
      undefined,
      () => undefined,
      { armApprovals: (a) => a() },
    );
    app.handle({ type: 'connectionState', state: { baseUrl: 'http://gw', keySource: 'secretStorage' } });
    app.handle({ type: 'imageRoot', root: ROOT });
  });
  afterEach(() => delete (globalThis as Record<string, unknown>).FileReader);

  const handle = (message: HostToChatMessage): void => app.handle(message);
  const models = (takesImages: boolean): void =>
    handle({
      type: 'models',
      models: [{ id: 'sim/model', isChat: true, ...(takesImages ? { takesImages: true } : {}) }],
      selected: 'sim/model',
      loading: false,
    });
  const attach = (): HTMLButtonElement => root.querySelector('.attach-image') as HTMLButtonElement;
  const note = (): HTMLElement => root.querySelector('.image-note') as HTMLElement;
  const paste = (files: File[]): Event => {
    const event = new page.dom.window.Event('paste', { bubbles: true, cancelable: true });
    Object.defineProperty(event, 'clipboardData', { value: { files, types: ['Files'] } });
    root.querySelector('.composer-input')?.dispatchEvent(event);
    return event;
  };
  const pngFile = (): File => new page.dom.window.File([new Uint8Array(PNG)], 'shot.png', { type: 'image/png' });
  const until = async (check: () => boolean): Promise<void> => {
    while (!check()) await new Promise((resolve) => setImmediate(resolve));
  };

  it('a model without image input: the attach button says why, and a click or a paste only shows a note', () => {
    models(false);
    assert.match(attach().getAttribute('aria-label') ?? '', /sim\/model does not take images/);
    assert.equal(attach().getAttribute('aria-disabled'), 'true');
    attach().click();
    assert.equal(note().hidden, false);
    assert.match(note().textContent ?? '', /does not take images .*nothing was attached/);
    const event = paste([pngFile()]);
    assert.equal(event.defaultPrevented, true, 'the image is not pasted as text either');
    assert.deepEqual(sent, []);
  });

  it('a vision model: the attach button opens the host picker, a pasted image goes as base64', async () => {
    models(true);
    assert.equal(attach().getAttribute('aria-disabled'), 'false');
    attach().click();
    assert.deepEqual(sent, [{ type: 'pickImage' }]);
    paste([pngFile()]);
    await until(() => sent.length === 2);
    assert.deepEqual(sent[1], { type: 'addImage', name: 'shot.png', data: PNG.toString('base64') });
    assert.equal(note().hidden, true);
  });

  it('takes an image dropped on the composer (and leaves a drop of other files alone)', async () => {
    models(true);
    const composer = root.querySelector('.composer') as HTMLElement;
    const drop = (files: File[]): Event => {
      const over = new page.dom.window.Event('dragover', { bubbles: true, cancelable: true });
      Object.defineProperty(over, 'dataTransfer', { value: { files: [], types: ['Files'] } });
      composer.dispatchEvent(over);
      assert.equal(over.defaultPrevented, true, 'the composer accepts a drop of files');
      assert.ok(composer.classList.contains('dragging'));
      const event = new page.dom.window.Event('drop', { bubbles: true, cancelable: true });
      Object.defineProperty(event, 'dataTransfer', { value: { files, types: ['Files'] } });
      composer.dispatchEvent(event);
      return event;
    };
    const text = new page.dom.window.File(['notes'], 'notes.txt', { type: 'text/plain' });
    assert.equal(drop([text]).defaultPrevented, false);
    assert.deepEqual(sent, []);
    assert.equal(drop([pngFile()]).defaultPrevented, true);
    assert.equal(composer.classList.contains('dragging'), false);
    await until(() => sent.length === 1);
    assert.deepEqual(sent[0], { type: 'addImage', name: 'shot.png', data: PNG.toString('base64') });
  });

  it('notes a pasted file that is not an image type the models take, or too large, and sends neither', async () => {
    models(true);
    const svg = new page.dom.window.File(['<svg/>'], 'x.svg', { type: 'image/svg+xml' });
    const big = new page.dom.window.File([new Uint8Array(5 * 1024 * 1024 + 1)], 'big.png', { type: 'image/png' });
    paste([svg, big]);
    await until(() => !note().hidden);
    assert.match(note().textContent ?? '', /x\.svg is not a PNG, JPEG, GIF or WebP image/);
    assert.match(note().textContent ?? '', /big\.png is over 5 MB, the most one image may weigh/);
    assert.deepEqual(sent, []);
  });

  it('sends no more images from one paste than a message can carry, and says how many were left out', async () => {
    models(true);
    // The SVG first: a note shows once the paste is handled, whether or not files were left out.
    const svg = new page.dom.window.File(['<svg/>'], 'x.svg', { type: 'image/svg+xml' });
    paste([svg, ...Array.from({ length: 11 }, () => pngFile())]);
    await until(() => !note().hidden);
    assert.equal(sent.filter((message) => message.type === 'addImage').length, 7);
    assert.match(note().textContent ?? '', /4 of the 12 images were not added: at most 8 can go with one message/);
  });

  it('shows pending images as thumbnails from the images folder, each removable', () => {
    handle({
      type: 'conversation',
      conversation: { id: 'c1', title: 't', model: 'sim/model', parameters: {}, turns: [], createdAt: 0, updatedAt: 0 },
      busy: false,
    });
    handle({ type: 'images', images: [ref] });
    const img = root.querySelector('.composer .image-thumb img') as HTMLImageElement;
    assert.equal(img.getAttribute('src'), `${ROOT}/c1/${ref.id}.png`);
    assert.equal(img.getAttribute('alt'), 'diagram.png (PNG, 2 KB, 2×2)');
    (root.querySelector('.composer .image-thumb .chip-remove') as HTMLButtonElement).click();
    assert.deepEqual(sent, [{ type: 'removeImage', id: ref.id }]);
    handle({ type: 'images', images: [] });
    assert.equal(root.querySelector('.composer .image-thumbs')?.childElementCount, 0);
  });

  it('shows a sent message with its thumbnails; an id that is not a hash loads nothing', async () => {
    const turn: UserTurn = {
      role: 'user',
      id: 'u1',
      text: 'What is in it?',
      attachments: [],
      images: [ref, { ...ref, id: '../../../secrets' }],
      createdAt: 0,
    };
    const conversation: Conversation = {
      id: 'c1',
      title: 't',
      model: 'sim/model',
      parameters: {},
      turns: [turn],
      createdAt: 0,
      updatedAt: 0,
    };
    handle({ type: 'conversation', conversation, busy: false });
    await new Promise((resolve) => page.dom.window.requestAnimationFrame(() => resolve(undefined)));
    const thumbs = root.querySelectorAll('.turn.user .image-thumb');
    assert.equal(thumbs.length, 2);
    assert.equal(thumbs[0]?.querySelector('img')?.getAttribute('src'), `${ROOT}/c1/${ref.id}.png`);
    assert.equal(thumbs[1]?.querySelector('img'), null);
    assert.equal(root.querySelector('.turn.user .user-text')?.textContent, 'What is in it?');
  });
});
