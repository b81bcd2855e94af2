import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, symlinkSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ImageRef } from '../../src/shared/chatModel';
import type { HostToChatMessage } from '../../src/shared/chatProtocol';
import type { TestApi } from '../../src/extension/testApi';
import type { LocalGateway } from '../gateway/index';
import { encodePng } from '../gateway/png';
import {
  activateExtension,
  disconnectGateway,
  connectedGateway,
  replace,
  setSetting,
  setSettingAndWait,
  waitFor,
} from './extensionHost';
import { lastAssistantTurn, newConversationWith } from './chatDriver';

// Images in the chat, host side in the real extension host against the local gateway: added as
// the webview sends them, stored under globalStorage (never in globalState), sent as image parts
// on both APIs (the vision model's echo names type, size and hash), shown again on reload,
// exported beside the markdown, deleted with the conversation; and VS Code's chat through the
// language model provider.
const VISION = 'sim-openai/gpt-sim-vision';
const PNG = encodePng(
  8,
  6,
  new Uint8Array(8 * 6 * 3).map((_, i) => (i * 37) % 256),
);
const GIF = Buffer.from('GIF89a\x02\x00\x02\x00\x00\x00\x00;', 'latin1');

function echoLine(index: number, type: string, bytes: Buffer): string {
  return `- image ${index}: ${type}, ${bytes.length} bytes, sha256 ${createHash('sha256').update(bytes).digest('hex').slice(0, 16)}`;
}

describe('chat images against the local gateway', function () {
  this.timeout(90_000);
  let api: TestApi;
  let gateway: LocalGateway;
  let posted: HostToChatMessage[];

  const imageFolder = (conversationId: string): string => join(api.globalStorage, 'conversationImages', conversationId);
  const pendingImages = (): readonly ImageRef[] =>
    posted.flatMap((m) => (m.type === 'images' ? [m.images] : [])).at(-1) ?? [];
  const lastNotice = (): string | undefined =>
    posted.flatMap((m) => (m.type === 'notice' ? [m.notice.text] : [])).at(-1);
  const addImage = (name: string, bytes: Buffer): Promise<void> =>
    api.chat.handle({ type: 'addImage', name, data: bytes.toString('base64') });

  before(async () => {
    api = await activateExtension();
    gateway = await connectedGateway(api);
    posted = [];
    api.chat.attach((message) => posted.push(message));
  });

  after(async () => {
    await setSetting('chat.api', undefined);
    await setSetting('defaultModels.chat', undefined);
    await setSetting('chat.costEstimateThreshold', undefined);
    await disconnectGateway(gateway);
  });

  it('sends an image to the vision model on both APIs; the gateway echoes the type, size and hash of the file', async () => {
    await newConversationWith(api, posted, VISION);
    const id = api.chat.current.id;
    await addImage('screenshot.png', PNG);
    const [ref] = pendingImages();
    assert.ok(ref, 'the image waits for the message, as a thumbnail');
    assert.deepEqual(
      [ref.mediaType, ref.byteLength, ref.width, ref.height, ref.name],
      ['image/png', PNG.length, 8, 6, 'screenshot.png'],
    );
    // The bytes are a file under globalStorage, and nowhere in the extension's state.
    const file = join(imageFolder(id), `${ref.id}.png`);
    assert.deepEqual(readFileSync(file), PNG);
    const state = JSON.stringify(api.storedState());
    assert.ok(
      !state.includes(PNG.toString('base64').slice(0, 40)) && !state.includes(ref.id),
      'no image in globalState',
    );

    // Chat completions.
    await setSetting('chat.api', 'chat');
    await api.chat.handle({ type: 'send', text: 'What is in this screenshot?' });
    let reply = lastAssistantTurn(api);
    assert.equal(reply.status, 'done', JSON.stringify(reply.error));
    assert.ok(reply.content.includes(echoLine(1, 'image/png', readFileSync(file))), reply.content);
    const chatBody = gateway.requests.filter((r) => r.path === '/api/v1/chat/completions').at(-1)?.body as {
      messages: Array<{ role: string; content: unknown }>;
    };
    assert.deepEqual(chatBody.messages.at(-1)?.content, [
      { type: 'text', text: 'What is in this screenshot?' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG.toString('base64')}` } },
    ]);
    assert.deepEqual(pendingImages(), [], 'the send took the image');

    // /messages, a second image in a later message: the first is resent with its turn.
    await setSetting('chat.api', 'messages');
    await addImage('tiny.gif', GIF);
    await api.chat.handle({ type: 'send', text: 'And this one?' });
    reply = lastAssistantTurn(api);
    assert.equal(reply.status, 'done', JSON.stringify(reply.error));
    assert.ok(reply.content.includes('Received 1 image '), reply.content);
    assert.ok(reply.content.includes(echoLine(1, 'image/gif', GIF)), reply.content);
    const messagesBody = gateway.requests.filter((r) => r.path === '/api/v1/messages').at(-1)?.body as {
      messages: Array<{ role: string; content: Array<Record<string, unknown>> }>;
    };
    const images = messagesBody.messages.flatMap((m) => m.content.filter((block) => block.type === 'image'));
    assert.deepEqual(
      images.map((block) => block.source),
      [
        { type: 'base64', media_type: 'image/png', data: PNG.toString('base64') },
        { type: 'base64', media_type: 'image/gif', data: GIF.toString('base64') },
      ],
    );
  });

  it('shows the images again when the conversation is reopened, exports them beside the markdown, and deletes them with it', async () => {
    const conversation = api.chat.current;
    const id = conversation.id;
    const refs = conversation.turns.flatMap((turn) => (turn.role === 'user' ? (turn.images ?? []) : []));
    assert.equal(refs.length, 2);
    await api.chat.handle({ type: 'newConversation' });
    posted.length = 0;
    await api.chat.handle({ type: 'openConversation', id });
    const opened = posted.flatMap((m) => (m.type === 'conversation' ? [m.conversation] : [])).at(-1);
    assert.deepEqual(
      opened?.turns.flatMap((turn) => (turn.role === 'user' ? (turn.images ?? []) : [])),
      refs,
      'the reloaded conversation carries its images',
    );

    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    assert.ok(folder);
    const target = vscode.Uri.joinPath(folder, 'chat with images.md');
    const restore = replace(vscode.window, 'showSaveDialog', async () => target);
    try {
      await api.chat.handle({ type: 'exportConversation', id });
    } finally {
      restore();
    }
    const markdown = new TextDecoder().decode(await vscode.workspace.fs.readFile(target));
    assert.ok(markdown.includes(`](chat%20with%20images.images/${refs[0]!.id}.png)`), markdown);
    const exported = await vscode.workspace.fs.readFile(
      vscode.Uri.joinPath(folder, 'chat with images.images', `${refs[0]!.id}.png`),
    );
    assert.deepEqual(Buffer.from(exported), PNG);

    assert.ok(existsSync(imageFolder(id)));
    posted.length = 0;
    await api.chat.handle({ type: 'deleteConversation', id });
    assert.equal(existsSync(imageFolder(id)), false, 'the images folder removed with the conversation');
    // Undo brings the conversation back with its pictures.
    const undo = posted.flatMap((m) => (m.type === 'notice' && m.notice.action === 'Undo' ? [m.notice] : [])).at(-1);
    assert.ok(undo, 'Undo is offered');
    await api.chat.handle({ type: 'noticeAction', id: undo.id });
    assert.deepEqual(readFileSync(join(imageFolder(id), `${refs[0]!.id}.png`)), PNG);
    await api.chat.handle({ type: 'deleteConversation', id });
    assert.equal(existsSync(imageFolder(id)), false);
  });

  it('refuses images for a model without image input, and hostile or too many images for one that takes them', async () => {
    await newConversationWith(api, posted, 'sim-openai/gpt-sim-mini');
    const id = api.chat.current.id;
    await addImage('shot.png', PNG);
    assert.match(lastNotice() ?? '', /does not take images/);
    assert.equal(existsSync(imageFolder(id)), false, 'nothing stored');

    await newConversationWith(api, posted, VISION);
    const vid = api.chat.current.id;
    await addImage('evil.png', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'));
    assert.match(
      lastNotice() ?? '',
      /Could not add evil\.png: That is not a PNG, JPEG, GIF or WebP image \(it looks like an SVG image\)/,
    );
    await api.chat.handle({ type: 'addImage', name: 'junk.png', data: 'not base64!!' });
    assert.match(lastNotice() ?? '', /Could not add junk\.png: the data is not an image/);
    for (let i = 0; i < 8; i++) {
      const bytes = Buffer.from(PNG);
      bytes[bytes.length - 20] = i; // eight different images
      await addImage(`n${i}.png`, bytes);
    }
    assert.equal(pendingImages().length, 8);
    await addImage('ninth.png', GIF);
    assert.match(lastNotice() ?? '', /At most 8 images/);
    assert.equal(pendingImages().length, 8);
    // Taken back before sending: the files go too.
    for (const ref of pendingImages()) await api.chat.handle({ type: 'removeImage', id: ref.id });
    assert.deepEqual(pendingImages(), []);

    // A burst of messages handled together (as the webview channel does) still stops at the cap.
    await Promise.all(
      Array.from({ length: 12 }, (_, i) => {
        const bytes = Buffer.from(PNG);
        bytes[bytes.length - 20] = 100 + i;
        return addImage(`burst${i}.png`, bytes);
      }),
    );
    assert.equal(pendingImages().length, 8);
    assert.equal(readdirSync(imageFolder(vid)).length, 8, 'no file stored past the cap');
    assert.match(lastNotice() ?? '', /At most 8 images/);
    for (const ref of pendingImages()) await api.chat.handle({ type: 'removeImage', id: ref.id });
    assert.deepEqual(pendingImages(), []);
    assert.deepEqual(existsSync(imageFolder(vid)) ? readdirSync(imageFolder(vid)) : [], []);
  });

  it('estimates the cost beside Send for a message of images alone (no text typed)', async () => {
    await setSettingAndWait('chat.costEstimateThreshold', 0);
    await newConversationWith(api, posted, VISION);
    await api.chat.handle({ type: 'draftSize', chars: 0 });
    posted.length = 0;
    await addImage('only.png', PNG);
    assert.equal(pendingImages().length, 1);
    const shown = await waitFor(
      () => posted.flatMap((m) => (m.type === 'costEstimate' ? [m] : [])).at(-1),
      (m) => m?.estimate !== undefined,
      'an estimate for the image alone',
    );
    assert.ok(shown?.estimate, JSON.stringify(shown));
    for (const ref of pendingImages()) await api.chat.handle({ type: 'removeImage', id: ref.id });
  });

  it('deletes the files of images left waiting in a conversation once images are added in another', async () => {
    await newConversationWith(api, posted, VISION);
    const blank = api.chat.current.id;
    await addImage('left.png', PNG);
    const [left] = pendingImages();
    assert.ok(left);
    assert.ok(existsSync(join(imageFolder(blank), `${left.id}.png`)));

    await newConversationWith(api, posted, VISION);
    await addImage('next.gif', GIF);
    assert.deepEqual(
      pendingImages().map((ref) => ref.name),
      ['next.gif'],
    );
    assert.deepEqual(
      existsSync(imageFolder(blank)) ? readdirSync(imageFolder(blank)) : [],
      [],
      'the image never sent is gone from the conversation it was left in',
    );

    // The same image sent, then waiting again: the sent message still shows it, so its file stays.
    const sent = api.chat.current.id;
    const [gif] = pendingImages();
    assert.ok(gif);
    await api.chat.handle({ type: 'send', text: 'What is this?' });
    assert.equal(lastAssistantTurn(api).status, 'done');
    await addImage('next again.gif', GIF);
    await newConversationWith(api, posted, VISION);
    await addImage('left.png', PNG);
    assert.deepEqual(readdirSync(imageFolder(sent)), [`${gif.id}.gif`]);
    for (const ref of pendingImages()) await api.chat.handle({ type: 'removeImage', id: ref.id });
  });

  it('deletes the files of images whose turns an edit-and-resend removed, and keeps those still shown', async () => {
    await newConversationWith(api, posted, VISION);
    const id = api.chat.current.id;
    await addImage('first.png', PNG);
    const [png] = pendingImages();
    await api.chat.handle({ type: 'send', text: 'One' });
    assert.equal(lastAssistantTurn(api).status, 'done');
    await addImage('second.gif', GIF);
    const [gif] = pendingImages();
    await api.chat.handle({ type: 'send', text: 'Two' });
    assert.equal(lastAssistantTurn(api).status, 'done');
    assert.ok(png && gif);
    assert.deepEqual(readdirSync(imageFolder(id)).sort(), [`${gif.id}.gif`, `${png.id}.png`].sort());

    const first = api.chat.current.turns.find((turn) => turn.role === 'user');
    assert.ok(first);
    await api.chat.handle({ type: 'editAndResend', turnId: first.id, text: 'One, again' });
    assert.equal(lastAssistantTurn(api).status, 'done');
    assert.deepEqual(
      readdirSync(imageFolder(id)),
      [`${png.id}.png`],
      "the removed turn's image is gone; the edited turn's stays",
    );
  });

  it("the attach button's file picker adds an image file; one over 5 MB is refused before it is read", async () => {
    await newConversationWith(api, posted, VISION);
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    assert.ok(folder);
    const picked = vscode.Uri.joinPath(folder, 'picked diagram.png');
    const huge = vscode.Uri.joinPath(folder, 'huge.png');
    await vscode.workspace.fs.writeFile(picked, PNG);
    const big = Buffer.alloc(5 * 1024 * 1024 + 1);
    PNG.copy(big);
    await vscode.workspace.fs.writeFile(huge, big);
    const restore = replace(vscode.window, 'showOpenDialog', async () => [picked, huge]);
    try {
      await api.chat.handle({ type: 'pickImage' });
    } finally {
      restore();
    }
    assert.deepEqual(
      pendingImages().map((ref) => [ref.name, ref.byteLength]),
      [['picked diagram.png', PNG.length]],
    );
    assert.match(lastNotice() ?? '', /Could not add huge\.png: it is over 5 MB, the most one image may weigh/);
    await vscode.workspace.fs.delete(huge);
    await vscode.workspace.fs.delete(picked);
  });

  it('refuses a picked device or FIFO named like an image, without reading it', async () => {
    await newConversationWith(api, posted, VISION);
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    assert.ok(folder);
    const zero = vscode.Uri.joinPath(folder, 'zero.png');
    const fifo = vscode.Uri.joinPath(folder, 'fifo.png');
    const good = vscode.Uri.joinPath(folder, 'good.png');
    symlinkSync('/dev/zero', zero.fsPath);
    execFileSync('/usr/bin/mkfifo', [fifo.fsPath]);
    await vscode.workspace.fs.writeFile(good, PNG);
    posted.length = 0;
    const restore = replace(vscode.window, 'showOpenDialog', async () => [zero, fifo, good]);
    try {
      await api.chat.handle({ type: 'pickImage' });
    } finally {
      restore();
      unlinkSync(zero.fsPath);
      unlinkSync(fifo.fsPath);
    }
    const notices = posted.flatMap((m) => (m.type === 'notice' ? [m.notice.text] : []));
    assert.ok(
      notices.some((text) => /Could not add zero\.png: it is not a regular file/.test(text)),
      notices.join('\n'),
    );
    assert.ok(
      notices.some((text) => /Could not add fifo\.png: it is not a regular file/.test(text)),
      notices.join('\n'),
    );
    assert.deepEqual(
      pendingImages().map((ref) => ref.name),
      ['good.png'],
      'the regular file beside them is added',
    );
    for (const ref of pendingImages()) await api.chat.handle({ type: 'removeImage', id: ref.id });
    await vscode.workspace.fs.delete(good);
  });

  it("VS Code's chat: the vision model declares image input and its image parts reach the gateway", async () => {
    const [vision] = await waitFor(
      async () => vscode.lm.selectChatModels({ vendor: 'unified-inference', id: VISION }),
      (models) => models.length === 1,
      'the vision model in VS Code',
    );
    const offered = await api.languageModels.provideLanguageModelChatInformation({ silent: true });
    assert.equal(offered.find((model) => model.id === VISION)?.capabilities.imageInput, true);
    assert.equal(offered.find((model) => model.id === 'sim-openai/gpt-sim-mini')?.capabilities.imageInput, false);
    const DataPart = (
      vscode as unknown as { LanguageModelDataPart: { image(data: Uint8Array, mime: string): unknown } }
    ).LanguageModelDataPart;
    await setSetting('chat.api', 'chat');
    const response = await vision!.sendRequest(
      [
        vscode.LanguageModelChatMessage.User([
          new vscode.LanguageModelTextPart('Describe it.'),
          DataPart.image(new Uint8Array(PNG), 'image/png') as vscode.LanguageModelTextPart,
        ]),
      ],
      {},
    );
    let text = '';
    for await (const part of response.stream) if (part instanceof vscode.LanguageModelTextPart) text += part.value;
    assert.ok(text.includes(echoLine(1, 'image/png', PNG)), text);

    // A model listed without image input is never answered as if the image were not there.
    const [mini] = await vscode.lm.selectChatModels({ vendor: 'unified-inference', id: 'sim-openai/gpt-sim-mini' });
    const before = gateway.requests.length;
    await assert.rejects(async () => {
      const refused = await mini!.sendRequest(
        [
          vscode.LanguageModelChatMessage.User([
            new vscode.LanguageModelTextPart('Describe it.'),
            DataPart.image(new Uint8Array(PNG), 'image/png') as vscode.LanguageModelTextPart,
          ]),
        ],
        {},
      );
      for await (const part of refused.stream) void part;
    }, /sim-openai\/gpt-sim-mini does not take images \(its catalog entry lists no image input\)/);
    assert.equal(gateway.requests.length, before, 'nothing went to the gateway');
  });
});
