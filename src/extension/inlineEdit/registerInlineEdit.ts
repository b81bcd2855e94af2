// Inline edit's wiring: the controller, its commands, and the providers of lenses, hover and the
// lightbulb action, all owned by the one disposable activate() keeps.
import * as vscode from 'vscode';
import type { CheckpointRecorder } from '../checkpoints/checkpointRecorder';
import type { Failures } from '../errors/failures';
import type { GatewayConnection } from '../gateway/gatewayConnection';
import type { Log } from '../log';
import type { WorkspaceFilesService } from '../workspaceFiles/workspaceFilesService';
import { InlineEditLenses } from './inlineEditLenses';
import { INLINE_EDIT_COMMANDS } from './inlineEditCommands';
import { InlineEdits, type StartArgs } from './inlineEdits';
import { InstructionHistory } from './instructionInput';

export interface RegisterInlineEditDeps {
  readonly connection: GatewayConnection;
  readonly failures: Failures;
  readonly workspaceFiles: WorkspaceFilesService;
  readonly checkpoints: CheckpointRecorder;
  readonly log: Log;
  readonly context: Pick<vscode.ExtensionContext, 'globalState' | 'extensionUri'>;
  /** Removes the key from text kept in state (the instruction history). */
  readonly redact: (text: string) => string;
}

export function registerInlineEdit(deps: RegisterInlineEditDeps): vscode.Disposable & { readonly edits: InlineEdits } {
  const edits = new InlineEdits({
    ...deps,
    history: new InstructionHistory(deps.context.globalState, deps.redact),
    extensionUri: deps.context.extensionUri,
  });
  const lenses = new InlineEditLenses(edits);
  const files: vscode.DocumentSelector = { scheme: 'file' };
  const disposables: vscode.Disposable[] = [
    edits,
    vscode.languages.registerCodeLensProvider(files, lenses),
    vscode.languages.registerHoverProvider(files, lenses),
    vscode.languages.registerCodeActionsProvider(files, lenses, {
      providedCodeActionKinds: InlineEditLenses.actionKinds,
    }),
    // The session is returned to the caller (a script, a test); the palette ignores it.
    vscode.commands.registerCommand(INLINE_EDIT_COMMANDS.start, (args?: StartArgs) =>
      edits.start(typeof args === 'object' && args !== null ? args : undefined),
    ),
    vscode.commands.registerCommand(INLINE_EDIT_COMMANDS.acceptAll, (id?: unknown) => edits.acceptAll(id)),
    vscode.commands.registerCommand(INLINE_EDIT_COMMANDS.rejectAll, (id?: unknown) => edits.rejectAll(id)),
    vscode.commands.registerCommand(
      INLINE_EDIT_COMMANDS.acceptChange,
      (id?: unknown, revision?: unknown, index?: unknown) => edits.onChange(true, id, revision, index),
    ),
    vscode.commands.registerCommand(
      INLINE_EDIT_COMMANDS.rejectChange,
      (id?: unknown, revision?: unknown, index?: unknown) => edits.onChange(false, id, revision, index),
    ),
    vscode.commands.registerCommand(INLINE_EDIT_COMMANDS.stop, (id?: unknown) => edits.stop(id)),
    vscode.commands.registerCommand(INLINE_EDIT_COMMANDS.showWarning, (id?: unknown) => edits.showWarning(id)),
  ];
  return {
    edits,
    dispose: () => {
      for (const d of disposables) d.dispose();
    },
  };
}
