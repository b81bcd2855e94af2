// Where sources sit on the wire (wire-conventions "Sources", "Messages"): chat completions'
// `annotations` (`url_citation`, nested or flattened), /messages text-block `citations` and
// `citations_delta` (any citation type that carries a url), and `web_search_tool_result` results.
// Each reader adds what it finds to a SourceList, which keeps only http(s) addresses, each once, up
// to its cap; a reader looks at the first MAX_ITEMS_READ items of one list at most.
import { MAX_REPLY_SOURCES, type SourceList } from '../../shared/replySources';
import { isRecord } from './json';

/** Items of one list read at most: past this a list is a flood, and the cap is long reached. */
const MAX_ITEMS_READ = MAX_REPLY_SOURCES * 20;

function items(value: unknown): readonly unknown[] {
  if (!Array.isArray(value)) return [];
  return value.length > MAX_ITEMS_READ ? value.slice(0, MAX_ITEMS_READ) : value;
}

/** One chat completions annotation: `{type:"url_citation", url_citation:{url,title,...}}` or flattened `{type, url, title}`. */
function addAnnotation(list: SourceList, value: unknown): void {
  if (!isRecord(value) || value.type !== 'url_citation') return;
  const citation = isRecord(value.url_citation) ? value.url_citation : value;
  list.add(citation.url, citation.title);
}

/** A delta's or message's `annotations`; anything that is not a list of url citations adds nothing. */
export function addAnnotations(list: SourceList, annotations: unknown): void {
  for (const item of items(annotations)) addAnnotation(list, item);
}

/**
 * One /messages citation (`web_search_result_location` and other types) that carries a url; a
 * `search_result_location` names its page in `source`. Citations of documents (char or page
 * locations) have no address and add nothing.
 */
export function addCitation(list: SourceList, citation: unknown): void {
  if (!isRecord(citation)) return;
  const url = typeof citation.url === 'string' ? citation.url : citation.source;
  list.add(url, citation.title);
}

export function addCitations(list: SourceList, citations: unknown): void {
  for (const item of items(citations)) addCitation(list, item);
}

/** A `web_search_tool_result` block's results (its content is an error object when the search failed). */
export function addWebSearchResults(list: SourceList, block: unknown): void {
  if (!isRecord(block)) return;
  for (const item of items(block.content))
    if (isRecord(item) && item.type === 'web_search_result') list.add(item.url, item.title);
}
