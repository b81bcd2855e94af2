// Offers the user's tool servers (`unifiedInference.chat.mcpServers`) to VS Code's own agent as
// MCP servers, so one list serves both: the gateway runs them for the extension's chat
// (`mcp_servers`), VS Code connects to them itself for its agent mode.
// Trust: the list is read from user settings only (USER_ONLY_SETTING_KEYS; a workspace's value is
// ignored), so a repository cannot add a server here. No header is ever attached: these are
// third-party servers, and the gateway's key and extra headers are for the gateway alone.
import * as vscode from 'vscode';
import { onDidChangeSettingsUnder, readSettings } from '../config';
import { Disposable } from '../lifecycle';
import type { Log } from '../log';
import { toolServerListing, type ToolServerListing } from '../../core/toolServers/toolServerList';

/** The id in package.json `contributes.mcpServerDefinitionProviders`. */
export const TOOL_SERVER_PROVIDER_ID = 'unifiedInference.toolServers';

export class ToolServerDefinitions
  extends Disposable
  implements vscode.McpServerDefinitionProvider<vscode.McpHttpServerDefinition>
{
  private readonly changed = this._register(new vscode.EventEmitter<void>());
  readonly onDidChangeMcpServerDefinitions = this.changed.event;
  /** False in a host without VS Code's MCP API (a fork, or an older build): nothing is offered. */
  readonly registered: boolean;
  private reported = '';

  constructor(private readonly log: Log) {
    super();
    const lm = vscode.lm as Partial<typeof vscode.lm>;
    this.registered = typeof lm.registerMcpServerDefinitionProvider === 'function';
    if (this.registered) this._register(vscode.lm.registerMcpServerDefinitionProvider(TOOL_SERVER_PROVIDER_ID, this));
    this._register(
      onDidChangeSettingsUnder('chat.mcpServers', () => {
        this.reportSkipped(this.listing());
        this.changed.fire();
      }),
    );
  }

  /** The current setting, as VS Code's agent is offered it. */
  listing(): ToolServerListing {
    return toolServerListing(readSettings().chat.mcpServers);
  }

  provideMcpServerDefinitions(): vscode.McpHttpServerDefinition[] {
    const listing = this.listing();
    this.reportSkipped(listing);
    return listing.offered.map(
      (server) => new vscode.McpHttpServerDefinition(server.label, vscode.Uri.parse(server.uri, true), {}),
    );
  }

  /**
   * Right before VS Code starts a server: it must still be in the user's list (VS Code may hold a
   * definition from before the user removed it), and it goes without any header of ours.
   */
  resolveMcpServerDefinition(server: vscode.McpHttpServerDefinition): vscode.McpHttpServerDefinition | undefined {
    const wanted = server.uri.toString(true);
    const listed = this.listing().offered.some((entry) => vscode.Uri.parse(entry.uri, true).toString(true) === wanted);
    if (!listed) {
      this.log.warn(
        `VS Code asked to start the tool server ${server.label}, which is no longer in unifiedInference.chat.mcpServers: not started.`,
      );
      return undefined;
    }
    server.headers = {};
    return server;
  }

  /** Says once per distinct list which addresses VS Code's agent does not get, and why. */
  private reportSkipped(listing: ToolServerListing): void {
    const text = listing.skipped.map((entry) => `${entry.address} (${entry.reason})`).join(', ');
    if (text === this.reported) return;
    this.reported = text;
    if (text) this.log.warn(`Tool servers not offered to VS Code's agent (the gateway still gets them): ${text}.`);
  }
}
