// The /messages blocks of tools the server ran itself, as the steps the chat shows: a
// `server_tool_use` (web search: `input: {query}`) answered by its `web_search_tool_result`, and an
// `mcp_tool_use` (Anthropic's MCP connector, `server_name`) answered by its `mcp_tool_result`. A use
// is remembered when it stops (its input assembled from its deltas) and becomes a step when its
// result arrives. These blocks are shown, never sent back (see viaMessages for why).
import type { ToolExecuted } from '../types/chat';
import { isRecord } from '../parse/json';
import { sourceTitle, sourceUrl } from '../../shared/replySources';

/** Results of one search listed in its step (the sources list under the reply holds the pages). */
const LISTED_RESULTS = 20;
/** Characters of an error code shown (a code is one word). */
const ERROR_CODE_CHARS = 100;

const USE_BLOCKS: ReadonlySet<string> = new Set(['server_tool_use', 'mcp_tool_use']);
const RESULT_BLOCKS: ReadonlySet<string> = new Set(['web_search_tool_result', 'mcp_tool_result']);

export class ServerToolBlocks {
  /** Uses by id, for the results that follow them (a search per result would be quadratic). */
  private readonly uses = new Map<unknown, Record<string, unknown>>();

  /** A block that started or stopped: a use is (re)remembered; a result gives its step. */
  seen(block: unknown): ToolExecuted | undefined {
    if (!isRecord(block) || typeof block.type !== 'string') return undefined;
    if (USE_BLOCKS.has(block.type)) {
      this.uses.set(block.id, block);
      return undefined;
    }
    if (!RESULT_BLOCKS.has(block.type)) return undefined;
    const use = this.uses.get(block.tool_use_id);
    if (use === undefined) return undefined;
    // Each result once: a block that stops twice, or a second result for one use, adds no step.
    this.uses.delete(block.tool_use_id);
    return block.type === 'mcp_tool_result' ? mcpToolExecuted(use, block) : webSearchExecuted(use, block);
  }
}

function nameOf(use: Record<string, unknown>): string {
  return typeof use.name === 'string' && use.name ? use.name : 'tool';
}

/** An MCP connector call: its text content is the result; `is_error` marks it failed. */
function mcpToolExecuted(use: Record<string, unknown>, result: Record<string, unknown>): ToolExecuted {
  const text = Array.isArray(result.content)
    ? result.content
        .map((part: unknown) => (isRecord(part) && typeof part.text === 'string' ? part.text : ''))
        .join('\n')
    : result.content;
  return {
    name: nameOf(use),
    ...(use.input !== undefined ? { arguments: use.input } : {}),
    ...(text !== undefined ? { result: text } : {}),
    ...(result.is_error === true ? { is_error: true } : {}),
    ...(typeof use.server_name === 'string' ? { server: use.server_name } : {}),
  };
}

/** A web search: its results listed (title and address, http(s) only), or the error code it failed with. */
function webSearchExecuted(use: Record<string, unknown>, result: Record<string, unknown>): ToolExecuted {
  const base = { name: nameOf(use), ...(use.input !== undefined ? { arguments: use.input } : {}) };
  const content = result.content;
  if (!Array.isArray(content)) {
    const code = isRecord(content) && typeof content.error_code === 'string' ? content.error_code : 'unknown';
    return { ...base, result: `The search failed: ${code.slice(0, ERROR_CODE_CHARS)}`, is_error: true };
  }
  const found = content.filter((item) => isRecord(item) && item.type === 'web_search_result') as Record<
    string,
    unknown
  >[];
  const lines = found.slice(0, LISTED_RESULTS).map((item, index) => {
    const url = sourceUrl(item.url) ?? '(an address that is not http or https, not shown)';
    const title = sourceTitle(item.title);
    return `${index + 1}. ${title ? `${title} — ` : ''}${url}`;
  });
  if (found.length > LISTED_RESULTS) lines.push(`… and ${found.length - LISTED_RESULTS} more results`);
  return { ...base, result: lines.length ? lines.join('\n') : 'No results.' };
}
