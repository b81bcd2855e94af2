// Text or binary, decided from the first bytes of a file (as git does): a NUL byte, or mostly
// control characters, means binary. UTF-16 files hold NUL bytes but are text: their byte-order
// mark says so, and they are decoded accordingly.

/** How much of the start of a file is inspected. */
const BINARY_SAMPLE_BYTES = 8192;

type Encoding = 'utf-8' | 'utf-16le' | 'utf-16be';

function bomEncoding(bytes: Uint8Array): Encoding | undefined {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return undefined;
}

/** Whether content (bytes read from disk, or text already decoded) looks binary. */
export function looksBinary(content: Uint8Array | string): boolean {
  if (typeof content === 'string') return content.slice(0, BINARY_SAMPLE_BYTES).includes('\0');
  if (bomEncoding(content)) return false;
  const sample = content.subarray(0, BINARY_SAMPLE_BYTES);
  let control = 0;
  for (const byte of sample) {
    if (byte === 0) return true;
    // Control characters other than tab, line feed, form feed, carriage return and escape.
    if (byte < 32 && byte !== 9 && byte !== 10 && byte !== 12 && byte !== 13 && byte !== 27) control++;
  }
  return sample.length > 0 && control / sample.length > 0.1;
}

/** Bytes as text: UTF-8 unless a UTF-16 byte-order mark says otherwise; bad sequences become U+FFFD. */
export function decodeText(bytes: Uint8Array): string {
  const encoding = bomEncoding(bytes) ?? 'utf-8';
  try {
    return new TextDecoder(encoding).decode(bytes);
  } catch {
    // A runtime without full ICU has no UTF-16BE decoder: undecodable beats unreadable.
    return new TextDecoder('utf-8').decode(bytes);
  }
}
