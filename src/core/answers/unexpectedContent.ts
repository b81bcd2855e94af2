// Words for a 2xx answer that is not an API answer: what arrived (its content type, and a short
// snippet: an HTML page's title, else its first words) and what to do. The snippet is server text,
// so it is cut short and stripped of markup, control and bidi characters; the transport redacts
// the key from the message like any other error text.
import { UnexpectedContentError } from '../errors';

const SNIPPET_CHARS = 80;
/** A run of key-like characters long enough to be a credential (a word of a title never is). */
const TOKEN_LIKE = /[A-Za-z0-9_\-+/=.:]{20,}/g;

/** The media type alone, lower-case ('' when there is none). */
export function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

function decodeEntities(text: string): string {
  return text.replace(
    /&(amp|lt|gt|quot|#39|nbsp);/g,
    (_m, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", nbsp: ' ' })[name] ?? ' ',
  );
}

/** One line of plain, printable text, at most SNIPPET_CHARS long. */
function clean(text: string): string {
  const plain = text
    // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
    .replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g, ' ')
    .replace(/\s+/g, ' ')
    // Before the cut: a page that echoes a credential would leave a prefix the redaction after
    // this (which looks for the whole key) cannot recognise. Titles have no 20-character tokens.
    .replace(TOKEN_LIKE, '[token]')
    .trim();
  return plain.length > SNIPPET_CHARS ? `${plain.slice(0, SNIPPET_CHARS - 1).trimEnd()}…` : plain;
}

function looksLikeHtml(type: string, text: string): boolean {
  return type.includes('html') || /^\s*(<!doctype\s+html|<html|<head|<body)/i.test(text);
}

/** The page's title (or first heading), else its visible text, else the text itself. */
export function contentSnippet(text: string, html: boolean): string {
  if (!html) return clean(text);
  const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(text)?.[1] ?? /<h1[^>]*>([\s\S]*?)<\/h1>/i.exec(text)?.[1];
  const visible = (title ?? text.replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, ' ')).replace(/<[^>]*>/g, ' ');
  return clean(decodeEntities(visible));
}

/**
 * The error for a 2xx answer to `what` (e.g. "the chat request") that is neither an event stream
 * nor JSON. `text` is the start of the body (a few KB are enough for a title).
 */
export function unexpectedContent(
  contentType: string | undefined,
  text: string,
  status?: number,
): UnexpectedContentError {
  const type = mediaType(contentType);
  const html = looksLikeHtml(type, text);
  const snippet = contentSnippet(text, html);
  const what = text.trim() === '' ? 'an empty answer' : html ? 'a web page' : 'something that is not an API answer';
  const details = [type === '' ? 'no content type' : type, ...(snippet === '' ? [] : [`"${snippet}"`])].join(', ');
  const message =
    `The gateway address answered with ${what} (${details}) instead of the model's answer. ` +
    "A captive portal (a hotel or office Wi-Fi sign-in), a proxy's login or block page, or a wrong gateway address does this: " +
    'check your network/proxy or the gateway address, then try again.';
  return new UnexpectedContentError(message, {
    contentType: contentType ?? '',
    ...(status === undefined ? {} : { status }),
  });
}
