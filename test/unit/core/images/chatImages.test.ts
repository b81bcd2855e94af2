// Images in chat messages, below the host: the checks of untrusted bytes (type by magic number,
// size), the store's files under a conversation's folder (caps, hashes, ids that cannot escape
// the folder), the stored shape, the wire parts of both APIs, and the markdown export.
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodePng } from '../../../gateway/png';
import { checkChatImage, cleanImageName, decodeBase64 } from '../../../../src/core/images/chatImage';
import { ChatImageStore } from '../../../../src/core/chat/history/chatImageStore';
import { ConversationStore } from '../../../../src/core/chat/history/conversationStore';
import { parseConversation } from '../../../../src/core/chat/history/conversationShape';
import { turnsToWire } from '../../../../src/core/chat/conversationWire';
import { toChatMessages, toMessagesParams } from '../../../../src/core/answers/gatewayMessages';
import { exportedImagePath, exportMarkdown } from '../../../../src/core/chat/history/exportMarkdown';
import { takesImages } from '../../../../src/core/models/modelFeatures';
import { DEFAULT_TOKENS_PER_CHAR, IMAGE_CHARS, messageChars } from '../../../../src/core/context/tokenEstimate';
import { estimateContextMeter } from '../../../../src/core/chat/context/meterEstimate';
import { parseChatToHostMessage } from '../../../../src/shared/chatProtocol';
import type { Conversation, ImageRef, UserTurn } from '../../../../src/shared/chatModel';

const PNG = new Uint8Array(encodePng(4, 3, new Uint8Array(36).fill(90)));
const GIF = new Uint8Array(Buffer.from('GIF89a\x07\x00\x05\x00\x00\x00\x00;', 'latin1'));

function pngOfSize(bytes: number): Uint8Array {
  const out = new Uint8Array(bytes);
  out.set(PNG.subarray(0, 24));
  return out;
}

function userTurn(images: ImageRef[], text = 'Look'): UserTurn {
  return { role: 'user', id: 'u-1', text, attachments: [], images, createdAt: 0 };
}

describe('chat images: checking what the webview sends', () => {
  it('describes a real image by its bytes: type, size, hash, pixels for PNG and GIF', () => {
    const ref = checkChatImage(PNG, 'C:\\Users\\me\\shot.png');
    assert.ok(typeof ref !== 'string');
    const sha256 = createHash('sha256').update(PNG).digest('hex');
    assert.deepEqual(ref, {
      id: sha256.slice(0, 32),
      mediaType: 'image/png',
      byteLength: PNG.byteLength,
      sha256,
      width: 4,
      height: 3,
      name: 'shot.png',
    });
    const gif = checkChatImage(GIF);
    assert.ok(typeof gif !== 'string');
    assert.equal(gif.mediaType, 'image/gif');
    assert.deepEqual([gif.width, gif.height], [7, 5]);
  });

  it('refuses wrong magic bytes (SVG, HTML, text named .png), empty data and an image over 5 MB', () => {
    assert.match(
      checkChatImage(new TextEncoder().encode('<svg onload="alert(1)"/>'), 'a.png') as string,
      /not a PNG, JPEG, GIF or WebP image \(it looks like an SVG image\)/,
    );
    assert.match(checkChatImage(new TextEncoder().encode('<html><body>'), 'a.png') as string, /an HTML page/);
    assert.match(checkChatImage(new Uint8Array(0)) as string, /empty/);
    assert.ok(typeof checkChatImage(pngOfSize(5 * 1024 * 1024)) !== 'string', 'exactly 5 MB passes');
    assert.match(
      checkChatImage(pngOfSize(5 * 1024 * 1024 + 1)) as string,
      /over 5 MB, the most one image may weigh \(it is 5,242,881 bytes\)/,
    );
  });

  it('keeps a name printable and free of paths and markdown brackets', () => {
    assert.equal(cleanImageName('../../etc/passwd'), 'passwd');
    assert.equal(cleanImageName('a]\n(javascript:x)[b\u0000.png'), 'a(javascript:x)b.png');
    assert.equal(cleanImageName('   '), undefined);
    assert.equal(cleanImageName(42), undefined);
    assert.equal(cleanImageName('x'.repeat(300))?.length, 100);
  });

  it('decodes only strict base64', () => {
    assert.deepEqual(decodeBase64(Buffer.from(PNG).toString('base64')), Buffer.from(PNG));
    assert.equal(decodeBase64('iVBO Rw0K'), undefined);
    assert.equal(decodeBase64('abc'), undefined);
    assert.equal(decodeBase64('ab$='), undefined);
    assert.equal(decodeBase64('a==='), undefined);
    assert.equal(decodeBase64('ab==ab=='), undefined, 'padding only at the end');
  });

  it('decodes base64 of an image of 5 MB (the most the protocol lets through) without overflowing the stack', () => {
    const big = pngOfSize(5 * 1024 * 1024);
    const decoded = decodeBase64(Buffer.from(big).toString('base64'));
    assert.ok(decoded, 'decoded');
    assert.equal(decoded.byteLength, big.byteLength);
    assert.deepEqual(Buffer.from(decoded.subarray(0, 24)), Buffer.from(big.subarray(0, 24)));
    assert.equal(decodeBase64(`${'A'.repeat(7_000_000)}$`), undefined, 'junk at the end of megabytes');
  });

  it('bounds addImage and removeImage messages from the webview', () => {
    const data = Buffer.from(PNG).toString('base64');
    assert.deepEqual(parseChatToHostMessage({ type: 'addImage', name: 'a.png', data }), {
      type: 'addImage',
      name: 'a.png',
      data,
    });
    const tooLong = 'A'.repeat(Math.ceil((5 * 1024 * 1024) / 3) * 4 + 4);
    assert.equal(parseChatToHostMessage({ type: 'addImage', name: 'a.png', data: tooLong }), undefined);
    assert.equal(parseChatToHostMessage({ type: 'addImage', name: 'a.png', data: 42 }), undefined);
    assert.equal(parseChatToHostMessage({ type: 'removeImage', id: '../../x' }), undefined);
    assert.equal(parseChatToHostMessage({ type: 'removeImage', id: 'A'.repeat(32) }), undefined);
    assert.deepEqual(parseChatToHostMessage({ type: 'pickImage' }), { type: 'pickImage' });
  });

  it('takes images only for models whose catalog entry says so', () => {
    assert.equal(takesImages(undefined), false);
    assert.equal(takesImages({ id: 'a', object: 'model' }), false);
    assert.equal(takesImages({ id: 'a', object: 'model', supports_vision: true }), true);
    assert.equal(
      takesImages({ id: 'a', object: 'model', architecture: { input_modalities: ['text', 'image'] } }),
      true,
    );
    assert.equal(takesImages({ id: 'a', object: 'model', capabilities: ['vision'] }), true);
    assert.equal(takesImages({ id: 'a', object: 'model', capabilities: { vision: false } }), false);
  });
});

describe('chat images: the store under globalStorage', () => {
  let root: string;
  let store: ChatImageStore;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'chat-images-'));
    store = new ChatImageStore(join(root, 'conversationImages'));
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it('stores an image once under its conversation, reads it back, and checks its hash on read', async () => {
    const ref = await store.add('c-1', PNG, 'shot.png');
    assert.ok(typeof ref !== 'string');
    const again = await store.add('c-1', PNG, 'other name.png');
    assert.ok(typeof again !== 'string' && again.id === ref.id);
    assert.deepEqual(await readdir(join(root, 'conversationImages', 'c-1')), [`${ref.id}.png`]);
    assert.deepEqual(Buffer.from((await store.read('c-1', ref))!), Buffer.from(PNG));
    const bytes = await store.readAll('c-1', [userTurn([ref])]);
    assert.equal(bytes.get(ref.id), Buffer.from(PNG).toString('base64'));
    // Changed on disk: it is no longer the image the user attached, so it is not sent.
    await writeFile(store.fileOf('c-1', ref), pngOfSize(100));
    assert.equal(await store.read('c-1', ref), undefined);
    assert.equal((await store.readAll('c-1', [userTurn([ref])])).size, 0);
  });

  it('refuses what is not an image, and more than a conversation may keep', async () => {
    assert.match((await store.add('c-1', new TextEncoder().encode('hello'))) as string, /not a PNG/);
    const big = (n: number): Uint8Array => {
      const bytes = pngOfSize(4 * 1024 * 1024);
      bytes[100] = n; // a different image each time
      return bytes;
    };
    for (let i = 0; i < 5; i++) assert.ok(typeof (await store.add('c-1', big(i))) !== 'string', `image ${i}`);
    assert.match((await store.add('c-1', big(9))) as string, /at most 20 MB can be kept with one conversation/);
    assert.ok(typeof (await store.add('c-2', big(9))) !== 'string', 'another conversation has its own cap');
  });

  it("removes the images of conversations that are gone once a day old, never a known or a recent one's", async () => {
    const folder = join(root, 'conversationImages');
    for (const id of ['kept', 'gone-old', 'gone-recent', 'gone-old-file-new']) await store.add(id, PNG);
    await mkdir(join(folder, 'not an id!'));
    const now = Date.now();
    const dayAndMore = new Date(now - 25 * 60 * 60 * 1000);
    const age = async (path: string): Promise<void> => utimes(path, dayAndMore, dayAndMore);
    for (const id of ['kept', 'gone-old', 'gone-old-file-new']) await age(join(folder, id));
    for (const name of await readdir(join(folder, 'kept'))) await age(join(folder, 'kept', name));
    for (const name of await readdir(join(folder, 'gone-old'))) await age(join(folder, 'gone-old', name));
    await age(join(folder, 'not an id!'));
    // A file written lately (an image just pasted in another window) keeps its folder.
    assert.deepEqual(await store.pruneOrphans(new Set(['kept']), now), ['gone-old']);
    assert.deepEqual((await readdir(folder)).sort(), ['gone-old-file-new', 'gone-recent', 'kept', 'not an id!']);
    assert.deepEqual(await new ChatImageStore(join(root, 'nothing-yet')).pruneOrphans(new Set(), now), []);
  });

  it('keeps the cap of a conversation when many images are added at once', async () => {
    const big = (n: number): Uint8Array => {
      const bytes = pngOfSize(4 * 1024 * 1024);
      bytes[100] = n;
      return bytes;
    };
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => store.add('c-1', big(i))));
    assert.equal(results.filter((r) => typeof r !== 'string').length, 5, 'five of 4 MB fit in 20 MB');
    assert.ok((await store.bytesUsed('c-1')) <= 20 * 1024 * 1024);
    assert.equal((await readdir(join(root, 'conversationImages', 'c-1'))).length, 5);
  });

  it('builds no path from an id that is not a hash or a conversation id (path tricks)', async () => {
    const ref = (await store.add('c-1', PNG)) as ImageRef;
    assert.throws(() => store.fileOf('c-1', { ...ref, id: '../../../etc/passwd' }), /Invalid image id/);
    assert.throws(() => store.fileOf('c-1', { ...ref, id: `${ref.id}/../x` }), /Invalid image id/);
    assert.throws(() => store.fileOf('../c-2', ref), /Invalid conversation id/);
    assert.throws(() => store.folderOf('/abs'), /Invalid conversation id/);
    assert.equal(await store.read('c-1', { ...ref, id: '..' }), undefined);
  });

  it('writes back what readAll read (Undo of a delete), checked against the hashes, and copies to a new id', async () => {
    const ref = (await store.add('c-1', PNG)) as ImageRef;
    const turns = [userTurn([ref])];
    const kept = await store.readAll('c-1', turns);
    await store.removeConversation('c-1');
    assert.equal(await store.read('c-1', ref), undefined);
    await store.restoreAll('c-1', turns, new Map([[ref.id, Buffer.from('forged').toString('base64')]]));
    assert.equal(await store.read('c-1', ref), undefined, 'bytes that do not match the hash are not written');
    await store.restoreAll('c-1', turns, kept);
    assert.deepEqual(Buffer.from((await store.read('c-1', ref))!), Buffer.from(PNG));
    await store.copyConversation('c-1', 'c-copy');
    assert.deepEqual(Buffer.from((await store.read('c-copy', ref))!), Buffer.from(PNG));
    await store.copyConversation('c-none', 'c-other'); // nothing to copy: no error, no folder
    assert.equal(await store.bytesUsed('c-other'), 0);
  });

  it('is deleted with its conversation by the conversation store', async () => {
    const conversations = new ConversationStore(join(root, 'conversations'), undefined, undefined, store);
    const ref = (await store.add('c-1', PNG)) as ImageRef;
    const conversation: Conversation = {
      id: 'c-1',
      title: 'With an image',
      model: 'sim-openai/gpt-sim-vision',
      parameters: {},
      turns: [userTurn([ref])],
      createdAt: 1,
      updatedAt: 1,
    };
    await conversations.save(conversation);
    const loaded = await conversations.load('c-1');
    assert.deepEqual((loaded?.turns[0] as UserTurn).images, [ref]);
    await conversations.delete('c-1');
    assert.deepEqual(await readdir(join(root, 'conversationImages')), []);
  });
});

describe('chat images: stored shape, wire parts and export', () => {
  const sha256 = createHash('sha256').update(PNG).digest('hex');
  const ref: ImageRef = {
    id: sha256.slice(0, 32),
    mediaType: 'image/png',
    byteLength: PNG.byteLength,
    sha256,
    name: 'shot.png',
  };

  it('drops malformed image refs of a stored file, and those whose id could name another file', () => {
    const file = {
      id: 'c-1',
      title: 't',
      model: 'm',
      parameters: {},
      createdAt: 1,
      updatedAt: 1,
      turns: [
        {
          role: 'user',
          id: 'u-1',
          text: 'x',
          createdAt: 1,
          images: [
            ref,
            { ...ref, id: '../../../../etc/passwd' },
            { ...ref, mediaType: 'image/svg+xml' },
            { ...ref, sha256: 'f'.repeat(64) },
            { ...ref, byteLength: -1 },
            'not an object',
          ],
        },
      ],
    };
    const parsed = parseConversation(file, 'c-1');
    assert.ok(typeof parsed !== 'string');
    assert.deepEqual((parsed.turns[0] as UserTurn).images, [ref]);
  });

  it('sends a user turn as text then image parts, on chat completions and /messages', () => {
    const data = Buffer.from(PNG).toString('base64');
    const wire = turnsToWire([userTurn([ref])], new Map([[ref.id, data]]));
    assert.deepEqual(wire, [
      {
        role: 'user',
        parts: [
          { kind: 'text', text: 'Look' },
          { kind: 'image', mediaType: 'image/png', data },
        ],
      },
    ]);
    assert.deepEqual(toChatMessages({ messages: wire }), [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Look' },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${data}` } },
        ],
      },
    ]);
    assert.deepEqual(toMessagesParams(wire), [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Look' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data } },
        ],
      },
    ]);
    // An image alone: no empty text part.
    assert.deepEqual(turnsToWire([userTurn([ref], '')], new Map([[ref.id, data]]))[0]?.parts, [
      { kind: 'image', mediaType: 'image/png', data },
    ]);
  });

  it('counts an image in an estimate (no bytes read), and never sends such a stand-in', () => {
    const wire = turnsToWire([userTurn([ref])]);
    assert.deepEqual(wire[0]?.parts, [
      { kind: 'text', text: 'Look' },
      { kind: 'image', mediaType: 'image/png', data: '' },
    ]);
    assert.ok(messageChars(wire[0]) >= IMAGE_CHARS, 'the estimate counts the image');
    assert.deepEqual(toChatMessages({ messages: wire }), [{ role: 'user', content: 'Look' }]);
    assert.deepEqual(toMessagesParams(wire), [{ role: 'user', content: [{ type: 'text', text: 'Look' }] }]);
  });

  it("counts a conversation's images and the images waiting for the next message in the context meter", () => {
    const conversation = (turns: Conversation['turns']): Conversation => ({
      id: 'c-1',
      title: 't',
      model: 'm',
      parameters: {},
      turns,
      createdAt: 0,
      updatedAt: 0,
    });
    const meter = (turns: Conversation['turns'], pendingImages = 0): number =>
      estimateContextMeter({
        conversation: conversation(turns),
        attachments: [],
        pendingImages,
        instructionFiles: [],
        model: 'm',
        toolsWithheld: false,
        toolChars: 0,
      }).usedTokens;
    const image = Math.ceil(IMAGE_CHARS * DEFAULT_TOKENS_PER_CHAR);
    assert.equal(meter([userTurn([ref])]) - meter([userTurn([])]), image);
    assert.equal(meter([userTurn([])], 2) - meter([userTurn([])]), 2 * image);
  });

  it('names an image whose file is gone instead of sending nothing silently', () => {
    const wire = turnsToWire([userTurn([ref])], new Map());
    assert.deepEqual(wire[0]?.parts, [{ kind: 'text', text: '[image shot.png: no longer stored, not sent]\n\nLook' }]);
  });

  it('exports images as links into the folder beside the markdown, or says they are gone', () => {
    const conversation: Conversation = {
      id: 'c-1',
      title: 'Pictures',
      model: 'm',
      parameters: {},
      turns: [userTurn([ref])],
      createdAt: 0,
      updatedAt: 0,
    };
    assert.ok(
      exportMarkdown(conversation, () => 'My%20chat.images/x.png').includes(
        `![shot.png (image/png, ${PNG.byteLength} bytes)](My%20chat.images/x.png)`,
      ),
    );
    assert.ok(exportMarkdown(conversation).includes('*[shot.png (image/png, '));
  });

  it('keeps the export links whole for a file name with parentheses, and names with * or _ out of emphasis', () => {
    assert.equal(exportedImagePath('a(b) c.images', ref), `a%28b%29%20c.images/${ref.id}.png`);
    const starred: Conversation = {
      id: 'c-1',
      title: 'Pictures',
      model: 'm',
      parameters: {},
      turns: [userTurn([{ ...ref, name: 'my_*star*_shot.png' }])],
      createdAt: 0,
      updatedAt: 0,
    };
    const markdown = exportMarkdown(starred);
    assert.ok(markdown.includes('*[my\\_\\*star\\*\\_shot.png (image/png, '), markdown);
    assert.ok(exportMarkdown(starred, () => 'x.images/y.png').includes('![my\\_\\*star\\*\\_shot.png (image/png, '));
  });
});
