// The web pages a reply cites or the gateway's web search found, as the chat keeps and shows them.
// Every URL and title comes from the model or the gateway: untrusted. Only http and https addresses
// are kept (a `javascript:` or `file:` link is dropped, never shown), titles are flattened to one
// line and bounded, and a reply keeps at most MAX_REPLY_SOURCES (a hostile answer can cite 10,000).
import { escapeMarkdown } from './markdownText';

/** One source: an address the chat can open (http or https) and the title the page was cited under. */
export interface ReplySource {
  readonly url: string;
  readonly title?: string;
}

/** Sources kept per reply: a search answer cites about 5 to 20; the rest of a flood is dropped. */
export const MAX_REPLY_SOURCES = 50;
/** Characters of a title kept (a page title is rarely longer than 100). */
export const MAX_SOURCE_TITLE_CHARS = 200;
/** Characters of an address kept: longer ones are dropped, not cut (a cut address is another page). */
const MAX_SOURCE_URL_CHARS = 2048;

/**
 * The WHATWG URL parser, a global of every place this layer runs (Node, the webview), which the
 * layer's ES-only lib does not declare: only what is used here.
 */
interface ParsedUrl {
  readonly href: string;
  readonly protocol: string;
  readonly host: string;
}
declare const URL: new (input: string) => ParsedUrl;

/** Control and format characters (bidi overrides included) that could disguise a title: removed. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const HIDDEN_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;

/** The address as the chat keeps it, or undefined when it is not an http(s) URL of bounded length. */
export function sourceUrl(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (text === '' || text.length > MAX_SOURCE_URL_CHARS) return undefined;
  let url: ParsedUrl;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  // The parsed form: percent-encoded, no white space or quotes left that could break a link around it.
  // The parser keeps a backslash in the query and fragment, where markdown reads it as an escape
  // (`<…\>` no longer closes the link): encoded too, which a server decodes to the same character.
  const href = url.href.replace(/\\/g, '%5C');
  return href.length > MAX_SOURCE_URL_CHARS ? undefined : href;
}

/** A title on one line, without hidden characters, at most MAX_SOURCE_TITLE_CHARS; undefined when empty. */
export function sourceTitle(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  // Bounded before the work on it: a 10 MB title costs no more than a short one.
  const flat = value
    .slice(0, MAX_SOURCE_TITLE_CHARS * 4)
    // The cut may have split a surrogate pair: its first half alone is dropped.
    .replace(/[\ud800-\udbff]$/, '')
    .replace(HIDDEN_CHARACTERS, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (flat === '') return undefined;
  const chars = Array.from(flat);
  return chars.length <= MAX_SOURCE_TITLE_CHARS ? flat : `${chars.slice(0, MAX_SOURCE_TITLE_CHARS - 1).join('')}…`;
}

/** A source from an untrusted url and title; undefined when the url is not one the chat may open. */
function replySource(url: unknown, title: unknown): ReplySource | undefined {
  const href = sourceUrl(url);
  if (href === undefined) return undefined;
  const name = sourceTitle(title);
  return name === undefined ? { url: href } : { url: href, title: name };
}

/** What a link to the source says when it has no title: the host name. */
export function sourceLabel(source: ReplySource): string {
  if (source.title) return source.title;
  try {
    return new URL(source.url).host || source.url;
  } catch {
    return source.url;
  }
}

/**
 * Sources in order of first appearance, each address once (a later title fills in a missing one),
 * at most MAX_REPLY_SOURCES. Adding is constant time, so 10,000 citations cost 10,000 look-ups.
 */
export class SourceList {
  private readonly items: ReplySource[] = [];
  private readonly at = new Map<string, number>();

  constructor(initial: readonly ReplySource[] = []) {
    for (const source of initial) this.add(source.url, source.title);
  }

  /** Adds an untrusted url and title; true when the list changed. */
  add(url: unknown, title?: unknown): boolean {
    const source = replySource(url, title);
    if (source === undefined) return false;
    const index = this.at.get(source.url);
    if (index !== undefined) {
      const known = this.items[index];
      if (known === undefined || known.title !== undefined || source.title === undefined) return false;
      this.items[index] = source;
      return true;
    }
    if (this.items.length >= MAX_REPLY_SOURCES) return false;
    this.at.set(source.url, this.items.length);
    this.items.push(source);
    return true;
  }

  get size(): number {
    return this.items.length;
  }

  /** A copy of the list. */
  list(): ReplySource[] {
    return [...this.items];
  }
}

/** A saved or received list, checked again: what is not a source is dropped. Undefined when none is left. */
export function sanitizeSources(value: unknown): ReplySource[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const list = new SourceList();
  for (const item of value.slice(0, MAX_REPLY_SOURCES * 4)) {
    if (typeof item === 'object' && item !== null) {
      const record = item as Record<string, unknown>;
      list.add(record['url'], record['title']);
    }
  }
  return list.size > 0 ? list.list() : undefined;
}

/**
 * The sources as a numbered markdown list of links under a `**Sources**` line (the export, the
 * @unified participant), or undefined when none may be shown. The title is escaped (it cannot open a
 * link, emphasis or HTML of its own) and the address, http(s) only and percent-encoded, sits in angle
 * brackets, so parentheses in it cannot end the link early.
 */
export function sourcesMarkdown(sources: readonly ReplySource[]): string | undefined {
  const links = sources.flatMap((source) => {
    const url = sourceUrl(source.url);
    return url === undefined ? [] : [`[${escapeMarkdown(sourceLabel({ ...source, url }))}](<${url}>)`];
  });
  if (links.length === 0) return undefined;
  return `**Sources**\n\n${links.map((link, index) => `${index + 1}. ${link}`).join('\n')}`;
}
