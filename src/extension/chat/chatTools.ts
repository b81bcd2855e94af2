// The function tools of one chat, put together for each reply: the read-only workspace tools and
// the edit tools, and the user's say over them. An edit runs without asking only when the user
// (in user settings) turned on autoApproveEdits and it touches nothing sensitive and no file
// that can run code or steers the model (core's guardedWrites.ts: .vscode/, package.json,
// scripts, hooks, AGENTS.md...); otherwise the usual Allow Once / for this conversation / Deny,
// sensitive and guarded files once at a time. The terminal tool (chat.terminalTool, user
// settings only) asks every time. Each conversation keeps what was excluded when its tools first
// looked (core's exclusionBaseline.ts): an edited .gitignore does not open it to the model.
import { ExclusionBaseline } from '../../core/workspaceFiles/exclusionBaseline';
import type { Settings } from '../../shared/settings';
import type { GatewayTool } from '../../core/answers/gatewayAnswer';
import type { CheckpointRecorder, ReplyRef } from '../checkpoints/checkpointRecorder';
import { EDIT_TOOLS, isEditTool } from '../../core/edits/editDefinitions';
import { EditTools } from '../edits/editTools';
import { COMMAND_TOOL, CommandTool, RUN_COMMAND } from '../terminal/commandTool';
import type { WorkspaceFilesService } from '../workspaceFiles/workspaceFilesService';
import type { ToolHost, ToolReview } from '../../core/answers/toolHost';
import type { ToolApprovals } from '../../core/chat/toolApprovals';
import { WORKSPACE_TOOLS, WorkspaceTools } from './workspaceTools';
import type { ChatGatewayServices } from './chatDeps';
import { GATEWAY_CHAT_TOOLS, GatewayChatTools, isGatewayChatTool } from './gatewayChatTools';

/**
 * Conversations whose exclusion baseline is kept (the least recently used is forgotten): each is
 * bounded (exclusionBaseline.ts: the .gitignore files of at most 10,000 folders, 500,000
 * characters of their text, digests of the rest).
 */
const MAX_BASELINES = 50;

/** The paths no standing permission covers: sensitive ones, and writes that can run code. */
function onceOnlyPaths(review: ToolReview): readonly string[] {
  return [...review.sensitivePaths, ...(review.guarded ?? []).map((g) => g.path)];
}

/**
 * The definitions a reply offers the model (also what the context meter counts). `gateway`: the
 * gateway-backed tools (search_codebase, deep_research) are there (the chat was given their services).
 */
export function chatToolDefinitions(settings: Settings, gateway: boolean): readonly GatewayTool[] {
  return [
    ...WORKSPACE_TOOLS,
    ...(gateway ? GATEWAY_CHAT_TOOLS : []),
    ...EDIT_TOOLS,
    ...(settings.chat.terminalTool ? [COMMAND_TOOL] : []),
  ];
}

/**
 * Whether a reply offers the workspace tools: on in the settings, and only in a trusted workspace.
 * On but untrusted, they are withheld and the system prompt says why. Asked per reply and per
 * meter estimate: trust can be granted (or the setting changed) between two messages.
 */
export function workspaceToolsGate(
  settings: Settings,
  trusted: boolean,
): { readonly offered: boolean; readonly withheld: boolean } {
  return { offered: settings.chat.workspaceTools && trusted, withheld: settings.chat.workspaceTools && !trusted };
}

export class ChatTools {
  private readonly workspace: WorkspaceTools;
  private readonly edits: EditTools;
  private readonly commands = new CommandTool();
  private readonly gateway: GatewayChatTools | undefined;
  /** Per conversation, most recently used last; bounded in number and each in size (see MAX_BASELINES). */
  private readonly baselines = new Map<string, ExclusionBaseline>();

  constructor(
    service: WorkspaceFilesService,
    private readonly approvals: ToolApprovals,
    checkpoints: CheckpointRecorder,
    gatewayTools?: ChatGatewayServices,
  ) {
    this.gateway = gatewayTools ? new GatewayChatTools(gatewayTools) : undefined;
    this.workspace = new WorkspaceTools(service);
    this.edits = new EditTools(service, checkpoints);
  }

  /** The tools of one reply (its conversation and turn are where the checkpoint files its pre-images). */
  forReply(reply: ReplyRef, settings: Settings): ToolHost {
    const { conversationId } = reply;
    const terminal = settings.chat.terminalTool;
    const baseline = this.baseline(conversationId);
    return {
      definitions: chatToolDefinitions(settings, this.gateway !== undefined),
      review: (call, signal) => {
        if (this.gateway && isGatewayChatTool(call.name)) return this.gateway.review(call, signal);
        if (call.name === RUN_COMMAND)
          return terminal
            ? this.commands.review(call)
            : Promise.resolve({ sensitivePaths: [], refusal: 'The terminal tool is off.' });
        return isEditTool(call.name) ? this.edits.review(call, baseline) : this.workspace.review(call, baseline);
      },
      needsApproval: (call, review) => {
        if (review.askEveryTime) return true;
        const onceOnly = onceOnlyPaths(review);
        if (isEditTool(call.name) && settings.chat.autoApproveEdits && onceOnly.length === 0) return false;
        return !this.approvals.isAllowed(conversationId, call.name, onceOnly);
      },
      approve: (call, abort, review) =>
        this.approvals.ask(conversationId, call.id, call.name, abort, onceOnlyPaths(review), review.askEveryTime),
      run: (call, abort, review) => {
        if (this.gateway && isGatewayChatTool(call.name)) return this.gateway.run(call, abort, review);
        if (call.name === RUN_COMMAND) return this.commands.run(review, abort);
        return isEditTool(call.name)
          ? this.edits.run(call, review, reply, baseline)
          : this.workspace.run(call, abort, review, baseline);
      },
    };
  }

  /** The conversation's exclusion baseline (made at its first reply with tools in this window). */
  private baseline(conversationId: string): ExclusionBaseline {
    const kept = this.baselines.get(conversationId) ?? new ExclusionBaseline();
    this.baselines.delete(conversationId);
    this.baselines.set(conversationId, kept);
    const oldest = this.baselines.keys().next().value;
    if (this.baselines.size > MAX_BASELINES && oldest !== undefined) this.baselines.delete(oldest);
    return kept;
  }

  openDiff(callId: string): Promise<boolean> {
    return this.edits.openDiff(callId);
  }
}
