// Wire variants: answers that are spec-legal or at least common in the world (other gateways,
// proxies, captive portals) but shaped differently from what this gateway normally sends. Each is
// a fault item (README "Fault injection"), so a client test can ask for exactly one variance.
import type { Reply } from './reply';

export type WireVariant =
  'whole-json' | 'html-200' | 'content-parts' | 'content-null' | 'no-choices' | 'usage-last-only';

const VARIANTS: ReadonlySet<string> = new Set<WireVariant>([
  'whole-json',
  'html-200',
  'content-parts',
  'content-null',
  'no-choices',
  'usage-last-only',
]);

export function isWireVariant(name: string): name is WireVariant {
  return VARIANTS.has(name);
}

/** The set with one more variant (fault specs are immutable once parsed). */
export function withVariant(set: ReadonlySet<WireVariant> | undefined, variant: WireVariant): ReadonlySet<WireVariant> {
  return new Set([...(set ?? []), variant]);
}

type Json = Record<string, unknown>;

/** A part a client must skip: not text, and it carries a `text`-like field of its own that must not leak in. */
const NON_TEXT_PART: Json = {
  type: 'image_url',
  image_url: { url: 'https://example.invalid/not-text.png', detail: 'not text: a client must skip this part' },
};

/** `text` as an array of content parts, with a non-text part in front of it. */
function asParts(text: string): Json[] {
  return [NON_TEXT_PART, { type: 'text', text }];
}

/**
 * The stream chunks of a chat answer, reshaped for the variants in force (in place, and cheap: a
 * benchmark stream runs through here without variants). `content-parts`: every text delta as
 * `[non-text part, {type:"text", text}]`. `content-null`: `content: null` on every chunk that
 * carries no text. `no-choices`: the tools_executed chunk without `choices`, and `choices: null`
 * keep-alive chunks at the start and after the first text.
 */
export function shapeChatChunk(chunk: Json, variants: ReadonlySet<WireVariant> | undefined): Json {
  if (variants === undefined) return chunk;
  const choices = chunk.choices as Json[] | undefined;
  const delta = choices?.[0]?.delta as Json | undefined;
  if (delta !== undefined) {
    if (variants.has('content-parts') && typeof delta.content === 'string' && delta.content !== '')
      delta.content = asParts(delta.content);
    if (variants.has('content-null') && (delta.content === undefined || delta.content === '')) delta.content = null;
  }
  if (variants.has('no-choices') && chunk.tools_executed !== undefined) delete chunk.choices;
  return chunk;
}

/** `no-choices`: a chunk with `choices: null` and nothing else a client could show. */
export function keepAliveChunk(base: Json, variants: ReadonlySet<WireVariant> | undefined): Json | undefined {
  return variants?.has('no-choices') ? { ...base, object: 'chat.completion.chunk', choices: null } : undefined;
}

/** The whole (non-stream) chat answer, reshaped: `content-parts` splits the text into parts; `no-choices` sends `choices: null`. */
export function shapeChatCompletion(body: Json, variants: ReadonlySet<WireVariant> | undefined): Json {
  if (variants === undefined) return body;
  const choices = body.choices as Json[];
  const message = choices[0]?.message as Json | undefined;
  if (message !== undefined && variants.has('content-parts') && typeof message.content === 'string') {
    const text = message.content;
    const half = Math.floor(text.length / 2);
    message.content = [
      { type: 'text', text: text.slice(0, half) },
      NON_TEXT_PART,
      { type: 'text', text: text.slice(half) },
    ];
  }
  if (variants.has('no-choices')) body.choices = null;
  return body;
}

/**
 * `html-200`: what a captive portal or a login proxy answers in place of the API: 200, text/html,
 * a page with a title and a script (which a client must never run or show raw). Whatever the
 * request asked for.
 */
export async function sendPortalPage(reply: Reply): Promise<void> {
  const page = [
    '<!DOCTYPE html>',
    '<html><head><meta charset="utf-8"><title>Hotel Wi-Fi - Sign in to continue</title>',
    '<script>window.location.href = "https://portal.example.invalid/login";</script>',
    '<style>body { font-family: sans-serif; }</style></head>',
    '<body><h1>Welcome!</h1><p>Please accept the terms of use to access the internet.</p>',
    '<form action="https://portal.example.invalid/accept" method="post"><button>Accept</button></form>',
    '</body></html>',
  ].join('\n');
  await reply.send(200, 'text/html; charset=utf-8', page);
}
