import type * as vscode from 'vscode';
import type { CreditsMonitor } from '../account/creditsMonitor';
import type { Failures } from '../errors/failures';
import type { GatewayConnection } from '../gateway/gatewayConnection';
import type { Log } from '../log';
import type { AudioPlayer } from '../media/audioPlayer';
import type { ModelCatalog } from '../models/modelCatalog';
import type { ReportDocuments } from '../research/reportDocuments';
import type { ResearchJobs } from '../research/researchJobs';
import type { ChatTurn } from '../../core/participant/history';

export const PARTICIPANT_ID = 'unifiedInference.unified';

export interface UnifiedParticipantDeps {
  readonly connection: GatewayConnection;
  /** Describes and reports failures the shared way. */
  readonly failures: Failures;
  readonly research: ResearchJobs;
  readonly reports: ReportDocuments;
  readonly catalog: ModelCatalog;
  readonly credits: CreditsMonitor;
  readonly log: Log;
  readonly extensionUri: vscode.Uri;
  /** Where generated images are kept until the user saves them (the extension's global storage). */
  readonly storageUri: vscode.Uri;
}

/** The slash commands of package.json's chatParticipants entry, plus '' for a plain prompt. */
export type UnifiedCommand = 'research' | 'image' | 'speak' | 'models' | 'quota' | '';

export type Outcome = 'done' | 'usage' | 'setup' | 'outOfCredits' | 'error' | 'cancelled';

/** What a response remembers for its followups (ChatResult.metadata). */
export interface UnifiedMetadata {
  readonly command: UnifiedCommand;
  readonly outcome: Outcome;
}

/** One request as every command handler sees it. */
export interface CommandContext {
  readonly deps: UnifiedParticipantDeps;
  readonly player: AudioPlayer;
  readonly prompt: string;
  readonly turns: readonly ChatTurn[];
  readonly stream: vscode.ChatResponseStream;
  readonly token: vscode.CancellationToken;
  /** Aborted the moment the token is cancelled: every gateway request takes it. */
  readonly signal: AbortSignal;
}

export function result(command: UnifiedCommand, outcome: Outcome, errorMessage?: string): vscode.ChatResult {
  const metadata: UnifiedMetadata = { command, outcome };
  return errorMessage ? { metadata, errorDetails: { message: errorMessage } } : { metadata };
}
