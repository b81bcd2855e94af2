// Real JPEG, GIF and WebP bytes for the image links the gateway can hand out, made without any
// library: a baseline JPEG of 8x8 grey blocks (DC coefficients only), a GIF with a 3-3-2 palette
// (LZW with a clear code often enough to stay at 9-bit codes), and a lossless WebP of one colour
// (every prefix code has one symbol, so the pixels cost no bits). Any decoder opens them.

class BitWriter {
  private readonly bytes: number[] = [];
  private current = 0;
  private used = 0;

  constructor(private readonly msbFirst: boolean) {}

  write(value: number, bits: number): void {
    for (let i = 0; i < bits; i++) {
      const bit = this.msbFirst ? (value >>> (bits - 1 - i)) & 1 : (value >>> i) & 1;
      this.current |= this.msbFirst ? bit << (7 - this.used) : bit << this.used;
      if (++this.used === 8) this.flush();
    }
  }

  /** The bytes, the last one padded (with 1s when `padOnes`, as JPEG wants). */
  finish(padOnes = false): number[] {
    if (this.used > 0) {
      if (padOnes) this.write(0xff, 8 - this.used);
      else this.flush();
    }
    return this.bytes;
  }

  private flush(): void {
    this.bytes.push(this.current);
    this.current = 0;
    this.used = 0;
  }
}

const u16be = (n: number): number[] => [(n >>> 8) & 0xff, n & 0xff];
const u16le = (n: number): number[] => [n & 0xff, (n >>> 8) & 0xff];
const u32le = (n: number): number[] => [n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, (n >>> 24) & 0xff];

function luma(rgb: Uint8Array, i: number): number {
  return 0.299 * (rgb[i * 3] ?? 0) + 0.587 * (rgb[i * 3 + 1] ?? 0) + 0.114 * (rgb[i * 3 + 2] ?? 0);
}

// The standard luminance DC table (JPEG Annex K): code lengths per category 0..11.
const DC_COUNTS = [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0];

/** Canonical Huffman codes from per-length counts, for symbols 0, 1, 2... in order. */
function canonicalCodes(counts: readonly number[]): { code: number; length: number }[] {
  const codes: { code: number; length: number }[] = [];
  let code = 0;
  counts.forEach((count, index) => {
    for (let i = 0; i < count; i++) codes.push({ code: code++, length: index + 1 });
    code <<= 1;
  });
  return codes;
}

/** Baseline greyscale JPEG: each 8x8 block is its mean grey (DC only; every block ends at once). */
export function encodeJpeg(width: number, height: number, rgb: Uint8Array): Buffer {
  const quant = 8;
  const dc = canonicalCodes(DC_COUNTS);
  const bits = new BitWriter(true);
  let previous = 0;
  for (let by = 0; by < Math.ceil(height / 8); by++) {
    for (let bx = 0; bx < Math.ceil(width / 8); bx++) {
      let sum = 0;
      for (let y = 0; y < 8; y++)
        for (let x = 0; x < 8; x++)
          sum += luma(rgb, Math.min(height - 1, by * 8 + y) * width + Math.min(width - 1, bx * 8 + x)) - 128;
      const value = Math.round(sum / 8 / quant);
      const diff = value - previous;
      previous = value;
      const category = diff === 0 ? 0 : Math.floor(Math.log2(Math.abs(diff))) + 1;
      const entry = dc[category] ?? { code: 0, length: 2 };
      bits.write(entry.code, entry.length);
      if (category > 0) bits.write(diff > 0 ? diff : diff + (1 << category) - 1, category);
      bits.write(0, 1); // end of block: the one AC code
    }
  }
  const scan: number[] = [];
  for (const byte of bits.finish(true)) scan.push(...(byte === 0xff ? [0xff, 0x00] : [byte]));
  const segment = (marker: number, body: number[]): number[] => [0xff, marker, ...u16be(body.length + 2), ...body];
  return Buffer.from([
    0xff,
    0xd8,
    ...segment(0xe0, [0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]),
    ...segment(0xdb, [0, ...new Array<number>(64).fill(quant)]),
    ...segment(0xc0, [8, ...u16be(height), ...u16be(width), 1, 1, 0x11, 0]),
    ...segment(0xc4, [0x00, ...DC_COUNTS, ...Array.from({ length: 12 }, (_, i) => i)]),
    ...segment(0xc4, [0x10, 1, ...new Array<number>(15).fill(0), 0x00]),
    ...segment(0xda, [1, 1, 0x00, 0, 63, 0]),
    ...scan,
    0xff,
    0xd9,
  ]);
}

/** GIF89a with a 256-colour 3-3-2 palette. */
export function encodeGif(width: number, height: number, rgb: Uint8Array): Buffer {
  const palette: number[] = [];
  for (let i = 0; i < 256; i++)
    palette.push(
      Math.round((((i >>> 5) & 7) * 255) / 7),
      Math.round((((i >>> 2) & 7) * 255) / 7),
      Math.round(((i & 3) * 255) / 3),
    );
  const bits = new BitWriter(false);
  const clear = 256;
  const end = 257;
  bits.write(clear, 9);
  for (let i = 0, sinceClear = 0; i < width * height; i++) {
    // A clear code before the table reaches 512 entries keeps every code 9 bits wide.
    if (++sinceClear > 250) {
      bits.write(clear, 9);
      sinceClear = 1;
    }
    const r = rgb[i * 3] ?? 0;
    const g = rgb[i * 3 + 1] ?? 0;
    const b = rgb[i * 3 + 2] ?? 0;
    bits.write(((r >>> 5) << 5) | ((g >>> 5) << 2) | (b >>> 6), 9);
  }
  bits.write(end, 9);
  const data = bits.finish();
  const blocks: number[] = [];
  for (let at = 0; at < data.length; at += 255) {
    const block = data.slice(at, at + 255);
    blocks.push(block.length, ...block);
  }
  return Buffer.concat([
    Buffer.from('GIF89a', 'ascii'),
    Buffer.from([...u16le(width), ...u16le(height), 0xf7, 0, 0, ...palette]),
    Buffer.from([0x2c, 0, 0, 0, 0, ...u16le(width), ...u16le(height), 0, 8]),
    Buffer.from(blocks),
    Buffer.from([0, 0x3b]),
  ]);
}

/** Lossless WebP (VP8L) of one colour: the colour of the image's first pixel. */
export function encodeWebp(width: number, height: number, rgb: Uint8Array): Buffer {
  const bits = new BitWriter(false);
  bits.write(width - 1, 14);
  bits.write(height - 1, 14);
  bits.write(0, 1); // alpha not used
  bits.write(0, 3); // version 0
  bits.write(0, 1); // no transform
  bits.write(0, 1); // no colour cache
  bits.write(0, 1); // no meta prefix codes
  // Green, red, blue, alpha, distance: "simple" prefix codes of one 8-bit symbol each.
  for (const symbol of [rgb[1] ?? 0, rgb[0] ?? 0, rgb[2] ?? 0, 255, 0]) {
    bits.write(1, 1); // simple code
    bits.write(0, 1); // one symbol
    bits.write(1, 1); // 8-bit symbol
    bits.write(symbol, 8);
  }
  const stream = [0x2f, ...bits.finish()];
  // The chunk size is the data's; RIFF pads odd-sized chunks with one byte after it.
  const chunk = [
    ...Buffer.from('VP8L', 'ascii'),
    ...u32le(stream.length),
    ...stream,
    ...(stream.length % 2 === 1 ? [0] : []),
  ];
  return Buffer.from([
    ...Buffer.from('RIFF', 'ascii'),
    ...u32le(4 + chunk.length),
    ...Buffer.from('WEBP', 'ascii'),
    ...chunk,
  ]);
}
