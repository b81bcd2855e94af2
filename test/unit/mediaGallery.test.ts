import * as assert from 'node:assert/strict';
import { imageBytes, imageFileName, imageFolderSegments, isPng, markdownImageLink, promptSlug } from '../../src/extension/media/imageData';
import { isGalleryImageId, parseGalleryToHostMessage } from '../../src/shared/galleryProtocol';
import { encodePng } from '../gateway/png';

describe('media: image gallery', () => {
  describe('message protocol (webview -> host, untrusted)', () => {
    it('accepts ready and the three actions on a well-formed image id, dropping extra fields', () => {
      assert.deepEqual(parseGalleryToHostMessage({ type: 'ready' }), { type: 'ready' });
      for (const type of ['save', 'copyLink', 'regenerate']) assert.deepEqual(parseGalleryToHostMessage({ type, id: 'img-12', path: '/etc/passwd' }), { type, id: 'img-12' });
    });

    it('refuses everything else', () => {
      const bad = [null, undefined, 'save', 42, {}, { type: 'save' }, { type: 'save', id: 12 }, { type: 'save', id: '../img-1' }, { type: 'save', id: 'img-' }, { type: 'save', id: 'img-1 ' }, { type: 'delete', id: 'img-1' }, { type: 'runCommand', command: 'x' }, { type: 'copyLink', id: `img-${'9'.repeat(10)}` }];
      for (const message of bad) assert.equal(parseGalleryToHostMessage(message), undefined, JSON.stringify(message));
      assert.ok(isGalleryImageId('img-0') && !isGalleryImageId('IMG-1'));
    });
  });

  describe('image bytes and names', () => {
    it('decodes b64_json and recognises PNG', async () => {
      const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]);
      const bytes = await imageBytes({ b64_json: Buffer.from(png).toString('base64') });
      assert.deepEqual(new Uint8Array(bytes), png);
      assert.ok(isPng(bytes));
      assert.ok(!isPng(new TextEncoder().encode('GIF89a....')));
    });

    it('downloads only http(s) URLs', async () => {
      for (const url of ['file:///etc/passwd', 'data:image/png;base64,AAAA', 'javascript:alert(1)', 'not a url']) await assert.rejects(imageBytes({ url }), /not http|not a URL/, url);
      await assert.rejects(imageBytes({}), /without image data/);
    });

    it('names files by time and prompt, safely', () => {
      assert.equal(promptSlug('A lighthouse at dusk, watercolour!'), 'a-lighthouse-at-dusk-watercolour');
      assert.equal(promptSlug('日本語 / ../..'), 'image');
      assert.equal(imageFileName('A cat', new Date('2026-11-23T14:25:01.123Z'), 1), 'image-20261123-142501-a-cat-2.png');
    });

    it('builds a markdown link that its alt text cannot break', () => {
      assert.equal(markdownImageLink('A [red] fox\n', 'images/my image.png'), '![A red fox](images/my%20image.png)');
    });

    it('keeps the images folder inside the workspace', () => {
      assert.deepEqual(imageFolderSegments('images'), ['images']);
      assert.deepEqual(imageFolderSegments('docs\\img/./gen/'), ['docs', 'img', 'gen']);
      assert.deepEqual(imageFolderSegments(''), []);
      for (const bad of ['../outside', 'a/../../b', '/etc', 'C:\\temp']) assert.equal(imageFolderSegments(bad), undefined, bad);
    });

    it('a PNG of the local gateway passes the signature check', () => {
      assert.ok(isPng(encodePng(4, 4, new Uint8Array(4 * 4 * 3).fill(200))));
    });
  });
});
