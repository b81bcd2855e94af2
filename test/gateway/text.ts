import { createHmac } from 'node:crypto';

/** 32-bit FNV-1a: a tiny stable hash for feature hashing, colours and tones (same input, same output, every run). */
export function fnv1a(text: string, seed = 0x811c9dc5): number {
  let hash = seed >>> 0;
  const bytes = Buffer.from(text, 'utf8');
  for (const byte of bytes) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

/** Lower-case word tokens (letters and digits of any script), for embeddings, rerank and tool-name matching. */
export function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];
}

/** The simulated tokenizer: one token per word or punctuation mark. Good enough for usage and cost arithmetic. */
export function countTokens(text: string): number {
  return (text.match(/[\p{L}\p{N}_]+|[^\s\p{L}\p{N}_]/gu) ?? []).length;
}

/** Splits text into stream pieces that concatenate back to it exactly: each word with its trailing whitespace. */
export function streamPieces(text: string): string[] {
  return text.match(/\s*\S+\s*/g) ?? (text ? [text] : []);
}

/** Cuts `text` into `size`-character pieces (tool-call arguments arrive in fragments like this). */
export function fragments(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out.length ? out : [''];
}

export function truncate(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

export function hmacBase64(secret: string, text: string): string {
  return createHmac('sha256', secret).update(text, 'utf8').digest('base64');
}

/** Content-free words for long benchmark streams; a few multi-byte characters keep UTF-8 decoding honest. */
const BENCH_WORDS = [
  'simulated ',
  'token ',
  'stream ',
  'bytes ',
  'naïve ',
  'café ',
  'über ',
  'data ',
  '→ ',
  'ok ',
  '🚀 ',
  'local\n',
];

export function benchPiece(i: number): string {
  return BENCH_WORDS[i % BENCH_WORDS.length] ?? 'x ';
}

/**
 * The deterministic reply of every simulated chat model: it says it is a simulation, echoes part
 * of the prompt and carries the markdown a renderer must handle (heading, list, fenced code).
 */
export function simulatedReply(opts: { model: string; prompt: string; messageCount: number; extra?: string }): string {
  const echo = truncate(opts.prompt, 160) || '(empty message)';
  const lines = [
    '## Local simulation',
    '',
    `This answer comes from **${opts.model}**, a local simulation: no real model was called.`,
    '',
    `> ${echo}`,
    '',
    `- Messages in the conversation: ${opts.messageCount}`,
    `- Words in your last message: ${words(opts.prompt).length}`,
    `- Characters in your last message: ${opts.prompt.length}`,
  ];
  if (opts.extra) lines.push('', opts.extra);
  lines.push('', '```text', truncate(opts.prompt, 80) || '(empty)', '```');
  // Code in a real language too, so clients can show (and test) syntax highlighting.
  lines.push(
    '',
    '```ts',
    `const reply = { model: ${JSON.stringify(opts.model)}, messages: ${opts.messageCount} };`,
    '```',
  );
  lines.push('', 'Ask again and you will get the same answer: the simulation is deterministic.');
  return lines.join('\n');
}
