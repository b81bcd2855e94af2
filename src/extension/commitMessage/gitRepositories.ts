// Finding the repository a commit message is for, through VS Code's git extension: the extension
// may be missing, turned off (git.enabled), not running (Restricted Mode: git does not run in an
// untrusted workspace), still opening its repositories, or have none open. Each is a problem with
// its own next step, never a silent no-op.
import * as vscode from 'vscode';
import { asGitExtension, type GitApi, type GitRepository } from './gitApi';

/** How long a command waits for the git extension to finish opening repositories. */
const GIT_READY_MS = 10_000;

export type GitProblem = 'noExtension' | 'disabled' | 'untrusted' | 'noRepository';

export type FoundRepository =
  { readonly ok: true; readonly repository: GitRepository } | { readonly ok: false; readonly problem: GitProblem };

/** The git API once the extension is on and has read its repositories, or the problem. */
async function gitApi(): Promise<
  { readonly ok: true; readonly api: GitApi } | { readonly ok: false; readonly problem: GitProblem }
> {
  if (!vscode.workspace.isTrusted) return { ok: false, problem: 'untrusted' };
  const extension = vscode.extensions.getExtension('vscode.git');
  if (!extension) return { ok: false, problem: 'noExtension' };
  const git = asGitExtension(
    extension.isActive ? extension.exports : await extension.activate().then(undefined, () => undefined),
  );
  if (!git) return { ok: false, problem: 'noExtension' };
  if (!git.enabled) return { ok: false, problem: 'disabled' };
  const api = git.getAPI(1);
  if (api.state !== 'initialized') await settled(api);
  return { ok: true, api };
}

function settled(api: GitApi): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      listener.dispose();
      resolve();
    };
    const timer = setTimeout(done, GIT_READY_MS);
    const listener = api.onDidChangeState((state) => state === 'initialized' && done());
  });
}

/** What the SCM title button hands its command: the source control, with its root. */
function rootOf(argument: unknown): vscode.Uri | undefined {
  if (typeof argument !== 'object' || argument === null) return undefined;
  const root = (argument as { rootUri?: unknown }).rootUri;
  return root instanceof vscode.Uri ? root : undefined;
}

/**
 * The repository: the one whose button was clicked, else the only one, else the active editor's,
 * else the one the user picks. Undefined when the pick was dismissed.
 */
export async function findRepository(argument: unknown): Promise<FoundRepository | undefined> {
  const found = await gitApi();
  if (!found.ok) return found;
  const { api } = found;
  const clicked = rootOf(argument);
  const byRoot = clicked ? api.getRepository(clicked) : null;
  if (byRoot) return { ok: true, repository: byRoot };
  const repositories = api.repositories;
  if (repositories.length === 0) return { ok: false, problem: 'noRepository' };
  if (repositories.length === 1) return { ok: true, repository: repositories[0] as GitRepository };
  const active = vscode.window.activeTextEditor?.document.uri;
  const ofActive = active ? api.getRepository(active) : null;
  if (ofActive) return { ok: true, repository: ofActive };
  const picked = await vscode.window.showQuickPick(
    repositories.map((repository) => ({
      label: vscode.workspace.asRelativePath(repository.rootUri, true),
      description: repository.rootUri.fsPath,
      repository,
    })),
    { title: vscode.l10n.t('Write a commit message for which repository?'), ignoreFocusOut: true },
  );
  return picked ? { ok: true, repository: picked.repository } : undefined;
}
