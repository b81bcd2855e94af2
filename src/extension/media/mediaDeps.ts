import type * as vscode from 'vscode';
import type { Failures } from '../errors/failures';
import type { GatewayConnection } from '../gateway/gatewayConnection';
import type { Log } from '../log';
import type { ModelCatalog } from '../models/modelCatalog';
import type { WorkspaceFilesService } from '../workspaceFiles/workspaceFilesService';
import type { AudioPlayer } from './audioPlayer';

/** What the media commands (transcription, read aloud, images) need from the rest of the extension. */
export interface MediaDeps {
  readonly connection: GatewayConnection;
  /** Shows failures the shared way, and checks the key before the first question. */
  readonly failures: Failures;
  readonly catalog: ModelCatalog;
  /** The one audio panel, shared with `@unified /speak`. */
  readonly player: AudioPlayer;
  readonly extensionUri: vscode.Uri;
  readonly log: Log;
  /** The gate to the workspace's files: the gallery's Save to Workspace goes through it. */
  readonly workspaceFiles: WorkspaceFilesService;
  /** Where the last choices are remembered (globalState), so a command asks less the next time. */
  readonly state: vscode.Memento;
}
