// Which of the user's tool servers (`unifiedInference.chat.mcpServers`) VS Code's own agent is
// offered as MCP servers. The gateway runs every listed address
// server-side (`mcp_servers`); VS Code connects to the ones offered here itself, from this
// machine, over MCP's Streamable HTTP transport.

interface OfferedToolServer {
  /** What VS Code shows (unique within the list). */
  readonly label: string;
  /** The address, normalized (no fragment). */
  readonly uri: string;
}

interface SkippedToolServer {
  readonly address: string;
  /** Why VS Code's agent is not offered it (it still goes to the gateway). */
  readonly reason: string;
}

export interface ToolServerListing {
  readonly offered: readonly OfferedToolServer[];
  readonly skipped: readonly SkippedToolServer[];
}

/** The user's setting never holds many; past this the list is a mistake, not a tool belt. */
export const MAX_OFFERED_TOOL_SERVERS = 50;

/** A readable name: host and path ("tools.example.com/mcp"), the port when it is not the scheme's own. */
function labelOf(url: URL): string {
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/+$/, '');
  return `${url.host}${path}`;
}

/**
 * The addresses (already http(s) only, from parseSettings) that VS Code's agent may use:
 * plain http(s) URLs without credentials. An address with a user name, password or query in it
 * is left to the gateway: VS Code would show it in its MCP views and keep it in its caches.
 */
export function toolServerListing(addresses: readonly string[]): ToolServerListing {
  const offered: OfferedToolServer[] = [];
  const skipped: SkippedToolServer[] = [];
  const labels = new Map<string, number>();
  const seen = new Set<string>();
  for (const address of addresses) {
    let url: URL;
    try {
      url = new URL(address);
    } catch {
      // Named by what cannot hold a secret: an unparsable address may still carry a password.
      skipped.push({ address: `entry ${offered.length + skipped.length + 1}`, reason: 'not a valid URL' });
      continue;
    }
    const shown = `${url.protocol}//${url.host}${url.pathname}`;
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      skipped.push({ address: shown, reason: 'not an http or https address' });
      continue;
    }
    // A query often carries a token (?key=...): treated like a password in the address.
    if (url.username || url.password || url.search) {
      skipped.push({
        address: shown,
        reason: 'holds credentials (a user name, password or query), which VS Code would show and store',
      });
      continue;
    }
    url.hash = '';
    const uri = url.href;
    if (seen.has(uri)) continue;
    if (offered.length >= MAX_OFFERED_TOOL_SERVERS) {
      skipped.push({ address: shown, reason: `past the first ${MAX_OFFERED_TOOL_SERVERS} tool servers` });
      continue;
    }
    seen.add(uri);
    const base = labelOf(url);
    const taken = (labels.get(base) ?? 0) + 1;
    labels.set(base, taken);
    offered.push({ label: taken === 1 ? base : `${base} (${taken})`, uri });
  }
  return { offered, skipped };
}
