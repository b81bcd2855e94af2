// The contract between a reply that calls function tools and the tools the extension offers (the
// workspace, edit and terminal tools): what a call asks, what the user is shown before it runs,
// and what it answers.
import type { GuardedWrite, ToolChange, ToolCommand } from '../../shared/chatModel';
import type { GatewayTool } from './gatewayAnswer';

export interface ToolCallRequest {
  readonly id: string;
  readonly name: string;
  readonly input: Record<string, unknown>;
  readonly arguments: string;
}

export interface ToolOutcome {
  readonly content: string;
  readonly isError?: boolean;
  /** A research job the call started: the step links it (the Research view opens on it). */
  readonly researchJobId?: string;
}

/** What a call would touch that the user must hear about before it runs. */
export interface ToolReview {
  /** Sensitive files it reads or writes: always asked about (named), never covered by an earlier "allow for this conversation". */
  readonly sensitivePaths: readonly string[];
  /** Files it writes that can run code or steer the model: always asked (even with autoApproveEdits on), named with the reason, never covered by "for this conversation". */
  readonly guarded?: readonly GuardedWrite[];
  /** An edit's change, computed before anyone is asked: the approval shows it. */
  readonly change?: ToolChange;
  /** A terminal command, shown verbatim. */
  readonly command?: ToolCommand;
  /** What the call costs or starts, said on the approval card (building the index, a research job): asked every time. */
  readonly notice?: string;
  /** What the model reads when the user denies the call (else a plain "not allowed"). */
  readonly deniedResult?: string;
  /** Asked every time, and only "Allow Once" lets it run (a terminal command). */
  readonly askEveryTime?: boolean;
  /** The call cannot run (a search that does not match, a path outside): a tool error, nobody is asked. */
  readonly refusal?: string;
  /** What the tool computed for `run` (the exact change reviewed); opaque to the runner. */
  readonly plan?: unknown;
}

export const NOTHING_SENSITIVE: ToolReview = { sensitivePaths: [] };

/** The function tools of the extension, and the user's say over running them. */
export interface ToolHost {
  readonly definitions: readonly GatewayTool[];
  /** Looks at a call before anyone is asked (none: nothing sensitive). */
  review?(call: ToolCallRequest, signal: AbortSignal): Promise<ToolReview>;
  /** False when the user already allowed this call (it runs without a question). */
  needsApproval(call: ToolCallRequest, review: ToolReview): boolean;
  /** Asks the user: resolves true to run the call, false when they denied it. */
  approve(call: ToolCallRequest, signal: AbortSignal, review: ToolReview): Promise<boolean>;
  /** Runs the call; `review` is what the user was shown (a sensitive file not in it must not be read). */
  run(call: ToolCallRequest, signal: AbortSignal, review: ToolReview): Promise<ToolOutcome>;
}
