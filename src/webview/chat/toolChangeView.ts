// An edit tool call's proposed change on its card: which files, +/- counts, the diff as text with
// added and removed lines in VS Code's diff colours (a line keeps its +/- sign, so it reads the
// same without colour and to a screen reader), and Open Diff for VS Code's diff editor. A terminal
// command shows verbatim, with its working folder and its hidden characters drawn visibly. All of
// it is model output: text only.
import type { ToolChange, ToolCommand } from '../../shared/chatModel';
import { visibleControls, visibleText } from '../../shared/visibleControls';
import { el, icon, textButton } from './dom';

const ACTION_WORDS = { create: 'Create', modify: 'Edit', delete: 'Delete', rename: 'Rename' } as const;

function lineClass(line: string): string {
  if (line.startsWith('+++ ') || line.startsWith('--- ')) return 'diff-line diff-file';
  if (line.startsWith('@@')) return 'diff-line diff-hunk';
  if (line.startsWith('+')) return 'diff-line diff-added';
  if (line.startsWith('-')) return 'diff-line diff-removed';
  if (line.startsWith(' ') || line === '') return 'diff-line';
  return 'diff-line diff-meta';
}

/** What the change does, in words (the card's heading and its accessible name). */
export function changeSummary(change: ToolChange): string {
  const files = change.files
    .map((file) =>
      file.action === 'rename'
        ? `${ACTION_WORDS.rename} ${file.path} to ${file.to ?? ''}`
        : `${ACTION_WORDS[file.action]} ${file.path}`,
    )
    .join('; ');
  const counts =
    change.added || change.removed
      ? `: ${change.added} ${change.added === 1 ? 'line' : 'lines'} added, ${change.removed} removed`
      : '';
  return `${files}${counts}`;
}

export function changeView(change: ToolChange, openDiff: () => void): HTMLElement {
  const summary = changeSummary(change);
  const diff = el('pre', {
    className: 'diff',
    attrs: { tabindex: '0', role: 'region', 'aria-label': `Diff: ${summary}` },
  });
  for (const line of change.diff.split('\n'))
    diff.append(el('span', { className: lineClass(line), text: `${line}\n` }));
  return el(
    'div',
    { className: 'tool-change' },
    el(
      'div',
      { className: 'change-header' },
      icon('diff'),
      el('span', {
        className: 'change-files',
        text: change.files.map((f) => (f.to ? `${f.path} → ${f.to}` : f.path)).join(', '),
      }),
      el('span', {
        className: 'change-counts',
        text: `+${change.added} −${change.removed}`,
        attrs: { 'aria-label': `${change.added} added, ${change.removed} removed` },
      }),
      textButton('Open Diff', openDiff, true),
    ),
    diff,
    change.truncated
      ? el('div', { className: 'change-note', text: 'The diff is cut here; Open Diff shows all of it.' })
      : undefined,
  );
}

/**
 * The command as it will run, with every control, bidirectional and invisible character drawn as a
 * badge (⟨U+202E⟩, ⟨\x1b⟩): a right-to-left override must not make `rm` read as something else.
 */
export function commandView(command: ToolCommand): HTMLElement {
  const segments = visibleControls(command.command);
  const line = el('pre', {
    className: 'command-line',
    attrs: { tabindex: '0', dir: 'ltr', 'aria-label': `Command: ${visibleText(command.command)}` },
  });
  for (const segment of segments) {
    line.append(
      segment.kind === 'text'
        ? segment.text
        : el('span', { className: 'control-char', text: segment.badge, attrs: { title: segment.name } }),
    );
  }
  const hidden = segments.some((segment) => segment.kind === 'control');
  return el(
    'div',
    { className: 'tool-command' },
    el('div', { className: 'command-cwd', text: `In ${command.cwd}:` }),
    line,
    hidden
      ? el(
          'div',
          { className: 'sensitive-note control-note', attrs: { role: 'note' } },
          icon('warning'),
          el('span', {
            text: 'This command holds control or invisible characters, shown as ⟨…⟩; it runs exactly as written.',
          }),
        )
      : undefined,
  );
}
