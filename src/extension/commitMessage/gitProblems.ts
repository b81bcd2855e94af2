// What the user reads when git cannot be used for a commit message, each with its next step.
import * as vscode from 'vscode';
import type { Failures } from '../errors/failures';
import type { GitProblem } from './gitRepositories';

export function showGitProblem(failures: Failures, problem: GitProblem): void {
  const title = vscode.l10n.t('Cannot write a commit message');
  const show = (message: string, label: string, run: () => unknown): void => {
    failures.present({ kind: 'setup', message, actions: [], detail: problem }, { title, more: [{ label, run }] });
  };
  switch (problem) {
    case 'untrusted':
      show(
        vscode.l10n.t(
          'Git does not run in Restricted Mode, and commit messages are written from what git reports. Trust this folder to use it.',
        ),
        vscode.l10n.t('Manage Workspace Trust'),
        () => vscode.commands.executeCommand('workbench.trust.manage'),
      );
      return;
    case 'noExtension':
      show(
        vscode.l10n.t(
          "VS Code's built-in Git extension is not available (disabled or missing). Enable it in the Extensions view.",
        ),
        vscode.l10n.t('Show Git Extension'),
        () => vscode.commands.executeCommand('workbench.extensions.search', '@builtin git'),
      );
      return;
    case 'disabled':
      show(
        vscode.l10n.t('Git is turned off (the git.enabled setting). Turn it on to write commit messages.'),
        vscode.l10n.t('Open Setting'),
        () => vscode.commands.executeCommand('workbench.action.openSettings', 'git.enabled'),
      );
      return;
    case 'noRepository':
      show(
        vscode.l10n.t('No Git repository is open. Open a folder that is a Git repository, or initialize one.'),
        vscode.l10n.t('Initialize Repository'),
        () => vscode.commands.executeCommand('git.init'),
      );
      return;
  }
}
