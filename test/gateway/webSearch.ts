// `web-search[=error|hostile]`: the model searches the web before it answers, in the shapes real
// providers send (README "Fault injection"). Chat completions: the answer carries `url_citation`
// annotations (OpenAI's web search, and gateways passing it through). Messages: a `server_tool_use`
// web_search block whose input streams as input_json_delta pieces, its `web_search_tool_result`
// (whole in its start), then the text block with `citations_delta` events before its text
// (Anthropic's web search tool). `error`: the search fails (`web_search_tool_result_error`, no
// sources). `hostile`: results a client must filter: a `javascript:` and a `file:` address, a title
// of 20,000 characters with bidi overrides and control characters, and 300 results (past any cap).
import { randomUUID } from 'node:crypto';
import { badRequest } from './errors';
import { FAULT_HEADER } from './faults';
import { truncate } from './text';

export type WebSearchMode = 'results' | 'error' | 'hostile';

export function parseWebSearch(value: string | undefined): WebSearchMode {
  if (value === undefined) return 'results';
  if (value === 'error' || value === 'hostile') return value;
  throw badRequest(FAULT_HEADER, "fault item 'web-search' takes no value, 'error' or 'hostile'", 'invalid_fault');
}

export interface SearchResult {
  readonly url: string;
  readonly title: string;
  readonly page_age?: string;
}

/** Pages under a reserved name (.example): links a test may show, never ones that lead anywhere. */
const SITE = 'https://search.sim.example';

/** What the simulated search finds for `query`: three pages, or the hostile list. */
export function searchResults(query: string, mode: WebSearchMode): SearchResult[] {
  const topic = truncate(query, 60) || 'nothing';
  const slug = encodeURIComponent(topic.toLowerCase().replace(/\s+/g, '-')).slice(0, 80);
  const pages: SearchResult[] = [
    { url: `${SITE}/guide/${slug}`, title: `A guide to ${topic} (simulated result)`, page_age: 'April 2, 2026' },
    { url: `${SITE}/faq/${slug}`, title: `${topic}: questions and answers (simulated)`, page_age: '3 days ago' },
    // No title: a client names it by its host.
    { url: `https://docs.sim.example/reference/${slug}`, title: '' },
  ];
  if (mode !== 'hostile') return pages;
  const hostile: SearchResult[] = [
    { url: 'javascript:alert(document.domain)', title: 'Click me (a javascript: link)' },
    { url: 'file:///etc/passwd', title: 'A file: link' },
    {
      url: `${SITE}/long-title`,
      title: `\u202eevil.exe\u202c ${'A very long title '.repeat(1200)}\u0000\u0007 end`,
    },
  ];
  for (let i = 0; i < 300; i++) hostile.push({ url: `${SITE}/flood/${i}`, title: `Flood result ${i}` });
  return [...pages, ...hostile];
}

type Json = Record<string, unknown>;

/** Chat completions' annotations for `text`: one url_citation per result, each citing the whole text. */
export function chatAnnotations(results: readonly SearchResult[], text: string): Json[] {
  return results.map((result) => ({
    type: 'url_citation',
    url_citation: { url: result.url, title: result.title, start_index: 0, end_index: text.length },
  }));
}

export interface ServerToolUseBlock {
  type: 'server_tool_use';
  id: string;
  name: string;
  input: Record<string, unknown>;
}
export interface WebSearchResultBlock {
  type: 'web_search_tool_result';
  tool_use_id: string;
  content: unknown;
}

/** The /messages blocks of one search: the server_tool_use and its result (results or error). */
export function searchBlocks(
  query: string,
  results: readonly SearchResult[],
  mode: WebSearchMode,
): [ServerToolUseBlock, WebSearchResultBlock] {
  const id = `srvtoolu_sim_${randomUUID().replace(/-/g, '').slice(0, 20)}`;
  const use: ServerToolUseBlock = { type: 'server_tool_use', id, name: 'web_search', input: { query } };
  const content =
    mode === 'error'
      ? { type: 'web_search_tool_result_error', error_code: 'max_uses_exceeded' }
      : results.map((result) => ({
          type: 'web_search_result',
          url: result.url,
          title: result.title,
          // Opaque to the client; the real API wants it back byte for byte if the block is replayed.
          encrypted_content: Buffer.from(`sim:${result.url}`).toString('base64'),
          ...(result.page_age ? { page_age: result.page_age } : {}),
        }));
  return [use, { type: 'web_search_tool_result', tool_use_id: id, content }];
}

/** The citations of the text block: one web_search_result_location per result. */
export function messageCitations(results: readonly SearchResult[], text: string): Json[] {
  return results.map((result) => ({
    type: 'web_search_result_location',
    url: result.url,
    title: result.title,
    cited_text: truncate(text, 150),
    encrypted_index: Buffer.from(`sim-index:${result.url}`).toString('base64'),
  }));
}
