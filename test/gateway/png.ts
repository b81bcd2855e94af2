import { crc32, deflateSync } from 'node:zlib';
import { fnv1a } from './text';

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Encodes 8-bit RGB pixels (row-major, 3 bytes each) as a PNG with filter type 0 on every row. */
export function encodePng(width: number, height: number, rgb: Uint8Array): Buffer {
  const stride = width * 3;
  const raw = Buffer.alloc((stride + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (stride + 1)] = 0;
    raw.set(rgb.subarray(y * stride, (y + 1) * stride), y * (stride + 1) + 1);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: RGB
  // bytes 10..12: compression, filter, interlace methods 0
  const text = Buffer.from('Software\0Unified Inference local gateway (simulation)', 'latin1');
  return Buffer.concat([
    PNG_SIGNATURE,
    chunk('IHDR', ihdr),
    chunk('tEXt', text),
    chunk('IDAT', deflateSync(raw, { level: 3 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A deterministic picture for a prompt: a two-colour diagonal gradient with a few discs, all derived from the prompt's hash, as RGB pixels (the image encoders start from them). Cheap per pixel, so 1792x1024 stays well under a second. */
export function renderPromptPixels(prompt: string, width: number, height: number, variant = 0): Uint8Array {
  const h = fnv1a(`${variant}:${prompt}`);
  const c1 = [h & 0xff, (h >>> 8) & 0xff, (h >>> 16) & 0xff];
  const c2 = [255 - (c1[0] ?? 0), 255 - (c1[2] ?? 0), (h >>> 24) & 0xff];
  const discs = [0, 1, 2].map((i) => {
    const d = fnv1a(`${i}:${variant}:${prompt}`);
    return {
      x: ((d % 1000) / 1000) * width,
      y: (((d >>> 10) % 1000) / 1000) * height,
      r: (0.08 + ((d >>> 20) % 100) / 600) * Math.min(width, height),
      shade: (d >>> 4) & 0xff,
    };
  });
  const rgb = new Uint8Array(width * height * 3);
  const span = width + height;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const t = (x + y) / span;
      let r = (c1[0] ?? 0) * (1 - t) + (c2[0] ?? 0) * t;
      let g = (c1[1] ?? 0) * (1 - t) + (c2[1] ?? 0) * t;
      let b = (c1[2] ?? 0) * (1 - t) + (c2[2] ?? 0) * t;
      for (const disc of discs) {
        const dx = x - disc.x;
        const dy = y - disc.y;
        if (dx * dx + dy * dy < disc.r * disc.r) {
          r = disc.shade;
          g = 255 - disc.shade;
          b = (disc.shade * 3) & 0xff;
        }
      }
      const o = (y * width + x) * 3;
      rgb[o] = r;
      rgb[o + 1] = g;
      rgb[o + 2] = b;
    }
  }
  return rgb;
}
