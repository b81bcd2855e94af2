// What a chat needs from the rest of the extension (built once in extension.ts, shared by the
// sidebar chat and every editor panel).
import type * as vscode from 'vscode';
import type { CreditsReading, CreditsState } from '../../core/account/creditsPresentation';
import type { CreditsMonitor } from '../account/creditsMonitor';
import type { CodeApplier } from '../apply/codeApplier';
import type { ApiKeyStore } from '../apiKey/apiKeyStore';
import type { GatewayConnection } from '../gateway/gatewayConnection';
import type { Log } from '../log';
import type { WorkspaceFilesService } from '../workspaceFiles/workspaceFilesService';
import type { ModelCatalog } from '../models/modelCatalog';
import type { WorkspaceFileIndex } from '../workspaceFiles/workspaceFileIndex';
import type { ConversationStore } from '../../core/chat/history/conversationStore';
import type { LastConversation } from '../../core/chat/lastConversation';
import type { CostMeter } from '../../core/chat/replyCost';
import type { ChatCheckpoints } from '../checkpoints/createCheckpoints';
import type { CodebaseSearchDeps } from '../search/codebaseSearch';
import type { ReportDocuments } from '../research/reportDocuments';
import type { ResearchJobs } from '../research/researchJobs';

export interface ChatDeps {
  readonly connection: GatewayConnection;
  readonly apiKeys: ApiKeyStore;
  readonly catalog: ModelCatalog;
  readonly credits: CreditsMonitor;
  readonly store: ConversationStore;
  /** The folder of the conversations' images (the chat webviews load thumbnails from it). */
  readonly imageFolder?: vscode.Uri;
  readonly files: WorkspaceFileIndex;
  /** The one gate to the workspace's files (tools, attachments). */
  readonly workspaceFiles: WorkspaceFilesService;
  readonly costs: CostMeter;
  /** Per workspace: the chosen model. */
  readonly workspaceState: vscode.Memento;
  /** Per workspace: the conversation the chat view had open. */
  readonly lastConversation: LastConversation;
  readonly log: Log;
  /** Which replies have a checkpoint, and restoring one (absent: no Restore buttons). */
  readonly checkpoints?: ChatCheckpoints;
  /** Apply on a reply's code block (shared by every chat: one review per file at a time). */
  readonly codeApplier: CodeApplier;
  /** The services the gateway-backed tools use (search_codebase, deep_research, @codebase, @research); absent: not offered. */
  readonly gatewayTools?: ChatGatewayServices;
}

/** The services behind the chat's gateway tools: the ones VS Code's language model tools use too. */
export interface ChatGatewayServices extends CodebaseSearchDeps {
  /** The Research view's own job list: a job the chat starts shows there like any other. */
  readonly research: ResearchJobs;
  readonly reports: ReportDocuments;
}

/** The newest balance reading the credits monitor holds, in whatever state it is. */
export function lastReading(state: CreditsState): CreditsReading | undefined {
  if (state.kind === 'ok') return state.reading;
  return 'last' in state ? state.last : undefined;
}
