import * as assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { IMAGE_TYPES, sniffImageType } from '../../src/core/images/imageType';
import { ImageDownloadError } from '../../src/core/errors';
import type { DownloadedImage } from '../../src/core/images/imageDownloader';
import {
  failureSummary,
  imageFileName,
  imageFolderSegments,
  markdownImageLink,
  promptSlug,
  splitDownloads,
} from '../../src/core/media/imageData';
import { isGalleryImageId, parseGalleryToHostMessage } from '../../src/shared/galleryProtocol';
import type { GalleryImage } from '../../src/shared/galleryProtocol';
import { GalleryView } from '../../src/webview/gallery/galleryView';
import { encodeGif, encodeJpeg, encodeWebp } from '../gateway/imageFormats';
import { encodePng } from '../gateway/png';

describe('media: image gallery', () => {
  describe('message protocol (webview -> host, untrusted)', () => {
    it('accepts ready and the three actions on a well-formed image id, dropping extra fields', () => {
      assert.deepEqual(parseGalleryToHostMessage({ type: 'ready' }), { type: 'ready' });
      for (const type of ['save', 'copyLink', 'regenerate'])
        assert.deepEqual(parseGalleryToHostMessage({ type, id: 'img-12', path: '/etc/passwd' }), {
          type,
          id: 'img-12',
        });
    });

    it('refuses everything else', () => {
      const bad = [
        null,
        undefined,
        'save',
        42,
        {},
        { type: 'save' },
        { type: 'save', id: 12 },
        { type: 'save', id: '../img-1' },
        { type: 'save', id: 'img-' },
        { type: 'save', id: 'img-1 ' },
        { type: 'delete', id: 'img-1' },
        { type: 'runCommand', command: 'x' },
        { type: 'copyLink', id: `img-${'9'.repeat(10)}` },
      ];
      for (const message of bad) assert.equal(parseGalleryToHostMessage(message), undefined, JSON.stringify(message));
      assert.ok(isGalleryImageId('img-0') && !isGalleryImageId('IMG-1'));
    });
  });

  describe('image bytes and names', () => {
    it('keeps every image that arrived and says why each other one did not, in answer order', () => {
      const arrived = (format: keyof typeof IMAGE_TYPES): PromiseSettledResult<DownloadedImage> => ({
        status: 'fulfilled',
        value: { bytes: new Uint8Array([1]), type: IMAGE_TYPES[format] },
      });
      const failed = (message: string): PromiseSettledResult<DownloadedImage> => ({
        status: 'rejected',
        reason: new ImageDownloadError('type', message),
      });
      const answer = [{ revised_prompt: ' one ' }, { revised_prompt: 'two' }, { revised_prompt: 'three' }];
      const { images, failures } = splitDownloads(answer, [
        arrived('jpeg'),
        failed('It is an SVG image.'),
        arrived('webp'),
      ]);
      assert.deepEqual(
        images.map((image) => [image.type.extension, image.revisedPrompt]),
        [
          ['jpg', 'one'],
          ['webp', 'three'],
        ],
      );
      assert.deepEqual(failures, [{ position: 'Image 2 of 3', message: 'It is an SVG image.' }]);
      assert.equal(
        failureSummary(2, failures),
        '2 of 3 images arrived; 1 could not be kept. Image 2 of 3: It is an SVG image.',
      );
      assert.equal(
        failureSummary(0, [...failures, ...failures]),
        'None of the 2 images could be kept. Image 2 of 3: It is an SVG image. The gallery shows every reason.',
      );
      assert.equal(failureSummary(0, splitDownloads([{}], [failed('Too large.')]).failures), 'Too large.');
    });

    it('names files by time and prompt, safely', () => {
      assert.equal(promptSlug('A lighthouse at dusk, watercolour!'), 'a-lighthouse-at-dusk-watercolour');
      assert.equal(promptSlug('日本語 / ../..'), 'image');
      assert.equal(
        imageFileName('A cat', new Date('2026-11-23T14:25:01.123Z'), 1, 'png'),
        'image-20261123-142501-a-cat-2.png',
      );
      assert.equal(
        imageFileName('A cat', new Date('2026-11-23T14:25:01.123Z'), 0, 'jpg'),
        'image-20261123-142501-a-cat-1.jpg',
      );
    });

    it('builds a markdown link that its alt text cannot break', () => {
      assert.equal(markdownImageLink('A [red] fox\n', 'images/my image.png'), '![A red fox](images/my%20image.png)');
    });

    it('keeps the images folder inside the workspace', () => {
      assert.deepEqual(imageFolderSegments('images'), ['images']);
      assert.deepEqual(imageFolderSegments('docs\\img/./gen/'), ['docs', 'img', 'gen']);
      assert.deepEqual(imageFolderSegments(''), []);
      for (const bad of ['../outside', 'a/../../b', '/etc', 'C:\\temp'])
        assert.equal(imageFolderSegments(bad), undefined, bad);
    });

    it("the local gateway's PNG, JPEG, WebP and GIF bytes are recognised by their magic numbers", () => {
      const rgb = new Uint8Array(16 * 16 * 3).fill(200);
      const found = [
        encodePng(16, 16, rgb),
        encodeJpeg(16, 16, rgb),
        encodeWebp(16, 16, rgb),
        encodeGif(16, 16, rgb),
      ].map((bytes) => sniffImageType(bytes)?.label);
      assert.deepEqual(found, ['PNG', 'JPEG', 'WebP', 'GIF']);
      assert.equal(sniffImageType(new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>')), undefined);
    });
  });

  describe('gallery page (jsdom)', () => {
    let dom: JSDOM;
    const globals = ['window', 'document', 'HTMLElement'] as const;
    before(() => {
      dom = new JSDOM('<!doctype html><html><body><main id="root"></main></body></html>');
      const g = globalThis as Record<string, unknown>;
      for (const name of globals) g[name] = (dom.window as unknown as Record<string, unknown>)[name];
    });
    after(() => {
      const g = globalThis as Record<string, unknown>;
      for (const name of globals) delete g[name];
      dom.window.close();
    });

    it('shows each image as a data: URL of its own type, refuses other types, and shows failure cards as text', () => {
      const root = dom.window.document.getElementById('root') as HTMLElement;
      const view = new GalleryView(root, () => undefined);
      const image = (id: string, mime: string, typeLabel: string): GalleryImage => ({
        id,
        prompt: 'p',
        revisedPrompt: 'r',
        model: 'm',
        size: '',
        quality: '',
        base64: 'AAAA',
        mime: mime as GalleryImage['mime'],
        typeLabel,
      });
      view.add([image('img-1', 'image/jpeg', 'JPEG'), image('img-2', 'image/svg+xml', 'SVG')]);
      const pictures = [...root.querySelectorAll('img.picture')].map((img) => img.getAttribute('src'));
      assert.deepEqual(pictures, ['data:image/jpeg;base64,AAAA'], 'an SVG never becomes a data: URL');
      assert.equal(
        root.querySelector('.card button.action')?.getAttribute('aria-label'),
        'Save image 1 to the workspace as JPEG',
      );
      view.addFailures([
        {
          id: 'fail-3',
          prompt: 'a <b>cat</b>',
          position: 'Image 2 of 2',
          message: 'It is an <img src=x onerror=alert(1)> page.',
        },
      ]);
      const failure = root.querySelector('li.failure');
      assert.equal(
        failure?.querySelector('.failure-title')?.textContent,
        'Image 2 of 2 of "a <b>cat</b>" was not kept',
      );
      assert.equal(
        failure?.querySelector('.failure-reason')?.textContent,
        'It is an <img src=x onerror=alert(1)> page.',
      );
      assert.equal(root.querySelectorAll('img').length, 1, 'messages are text, not markup');
      assert.equal(root.querySelectorAll('.card').length, 1, 'a failure is not an image card');
    });
  });
});
