// Commit messages: the writer and its two commands (Write, Stop), shown in the Source Control
// title of git repositories and in the palette.
import * as vscode from 'vscode';
import { CommitMessageWriter, type CommitMessageDeps } from './commitMessageWriter';

export function registerCommitMessage(deps: CommitMessageDeps): {
  readonly writer: CommitMessageWriter;
  readonly disposables: vscode.Disposable[];
} {
  const writer = new CommitMessageWriter(deps);
  return {
    writer,
    disposables: [
      writer,
      vscode.commands.registerCommand('unifiedInference.commitMessage.write', (sourceControl?: unknown) =>
        writer.write(sourceControl),
      ),
      vscode.commands.registerCommand('unifiedInference.commitMessage.stop', (sourceControl?: unknown) =>
        writer.stop(sourceControl),
      ),
    ],
  };
}
