// The changes a commit message is written from, as the prompt sees them: every changed file is
// named (the list is always complete), and a file's diff is present only when it may be sent.
// Sensitive, excluded and binary files are named with the reason their content stays home.
import { hiddenCharactersOut } from './hiddenCharacters';

/** Why a changed file's content is not in the prompt. */
type WithheldReason = 'sensitive' | 'excluded' | 'binary' | 'outside' | 'unreadable' | 'budget' | 'tooLarge';

export type ChangeContent =
  { readonly kind: 'diff'; readonly text: string } | { readonly kind: 'withheld'; readonly reason: WithheldReason };

export interface ChangedFile {
  /** Repository-relative, with forward slashes. */
  readonly path: string;
  /** Git's letter: M, A, D, R, C, T, U, or ? for an untracked file. */
  readonly status: string;
  /** A rename's or copy's source. */
  readonly oldPath?: string;
  readonly content: ChangeContent;
}

const REASON_WORDS: Readonly<Record<WithheldReason, string>> = {
  sensitive: 'content not sent: sensitive',
  excluded: 'content not sent: excluded by files.exclude, search.exclude or .gitignore',
  binary: 'binary',
  outside: 'content not sent: outside the workspace folders',
  unreadable: 'content not read',
  budget: 'diff left out: over the size budget',
  tooLarge: 'content not sent: too large',
};

/**
 * Control, bidirectional and invisible characters out of a path or subject, so a file named to
 * mislead the model (or the user reading the prompt) reads as what it is.
 */
export function plainLine(text: string): string {
  return hiddenCharactersOut(text, ' ', false);
}

/** One line of the file list: `M src/a.ts`, `R old.ts -> new.ts`, `M .env (content not sent: sensitive)`. */
export function fileLine(file: ChangedFile): string {
  const name = file.oldPath ? `${plainLine(file.oldPath)} -> ${plainLine(file.path)}` : plainLine(file.path);
  const note = file.content.kind === 'withheld' ? ` (${REASON_WORDS[file.content.reason]})` : '';
  return `${plainLine(file.status)} ${name}${note}`;
}

/** Git marks a binary file's diff with this line rather than hunks. */
export function isBinaryDiff(diff: string): boolean {
  return /^Binary files .* differ$/m.test(diff) || /^GIT binary patch$/m.test(diff);
}

/** A new, untracked file shown as git would show it added (git has no diff for it yet). */
export function untrackedDiff(path: string, text: string, truncated: boolean): string {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const name = plainLine(path);
  return `diff --git a/${name} b/${name}\nnew file (untracked)\n--- /dev/null\n+++ b/${name}\n@@ -0,0 +1,${lines.length} @@\n${lines.map((line) => `+${line}\n`).join('')}${truncated ? '[... the rest of this new file not read]\n' : ''}`;
}
