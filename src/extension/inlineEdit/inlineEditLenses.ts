// What the editor offers around an inline edit: the lenses (Stop while it streams; Accept All /
// Reject All / Refine and a warning for a file that can run code above the edit; Accept / Reject
// above each change), the hover with a change's proposed lines whole, and the lightbulb's
// "Edit with Unified Inference".
import * as vscode from 'vscode';
import type { InlineEdits } from './inlineEdits';
import { INLINE_EDIT_COMMANDS } from './inlineEditCommands';

const MAC = process.platform === 'darwin';

function key(mac: string, other: string): string {
  return MAC ? mac : other;
}

export class InlineEditLenses implements vscode.CodeLensProvider, vscode.HoverProvider, vscode.CodeActionProvider {
  static readonly actionKinds = [vscode.CodeActionKind.RefactorRewrite];
  readonly onDidChangeCodeLenses: vscode.Event<void>;

  constructor(private readonly edits: InlineEdits) {
    this.onDidChangeCodeLenses = edits.onDidChange;
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const session = this.edits.sessionOf(document.uri);
    if (!session || session.state === 'ended') return [];
    const at = (line: number): vscode.Range => new vscode.Range(line, 0, line, 0);
    if (session.state === 'streaming') {
      const line = session.streamingAnchor(document.getText()) ?? 0;
      return [
        new vscode.CodeLens(at(line), {
          title: `$(loading~spin) ${vscode.l10n.t('{0} is writing the edit…', session.model)}`,
          command: '',
        }),
        new vscode.CodeLens(at(line), {
          title: `$(debug-stop) ${vscode.l10n.t('Stop ({0})', 'Escape')}`,
          command: INLINE_EDIT_COMMANDS.stop,
          arguments: [session.id],
        }),
      ];
    }
    const review = session.review;
    if (!review || review.isEnded) return [];
    const changes = this.edits.decorations.changesOf(session, document);
    const top = at(Math.min(...changes.map((c) => c.anchor), document.lineCount - 1));
    const lenses: vscode.CodeLens[] = [];
    if (session.init.sensitive.length)
      lenses.push(
        new vscode.CodeLens(top, {
          title: `$(warning) ${vscode.l10n.t('{0} is a sensitive file', session.init.display)}`,
          command: '',
        }),
      );
    if (changes.some((c) => c.hidden)) {
      lenses.push(
        new vscode.CodeLens(top, {
          title: `$(warning) ${vscode.l10n.t('The proposal holds hidden characters (shown as ⟨U+…⟩): read it before you accept it')}`,
          command: '',
        }),
      );
    }
    if (session.init.guarded.length) {
      lenses.push(
        new vscode.CodeLens(top, {
          title: `$(warning) ${vscode.l10n.t('{0} can run code: read the change before you accept it', session.init.display)}`,
          command: INLINE_EDIT_COMMANDS.showWarning,
          arguments: [session.id],
        }),
      );
    }
    lenses.push(
      new vscode.CodeLens(top, {
        title: `$(check-all) ${vscode.l10n.t('Accept All ({0})', key('⇧⌥⌘Y', 'Alt+Shift+Y'))}`,
        command: INLINE_EDIT_COMMANDS.acceptAll,
        arguments: [session.id],
        tooltip: vscode.l10n.t('Write every proposed change to {0} (one undo step)', session.init.display),
      }),
      new vscode.CodeLens(top, {
        title: `$(close-all) ${vscode.l10n.t('Reject All ({0})', 'Escape')}`,
        command: INLINE_EDIT_COMMANDS.rejectAll,
        arguments: [session.id],
        tooltip: vscode.l10n.t('Leave {0} as it is', session.init.display),
      }),
      new vscode.CodeLens(top, {
        title: `$(edit) ${vscode.l10n.t('Refine…')}`,
        command: INLINE_EDIT_COMMANDS.start,
        tooltip: vscode.l10n.t('Give another instruction for this edit'),
      }),
    );
    for (const change of changes) {
      const args = [session.id, review.revision, change.index];
      lenses.push(
        new vscode.CodeLens(at(change.anchor), {
          title: `$(check) ${vscode.l10n.t('Accept Change ({0})', key('⌥⌘Y', 'Alt+Y'))}`,
          command: INLINE_EDIT_COMMANDS.acceptChange,
          arguments: args,
        }),
        new vscode.CodeLens(at(change.anchor), {
          title: `$(discard) ${vscode.l10n.t('Reject Change ({0})', key('⌥⌘N', 'Alt+N'))}`,
          command: INLINE_EDIT_COMMANDS.rejectChange,
          arguments: args,
        }),
      );
    }
    return lenses;
  }

  provideHover(document: vscode.TextDocument, position: vscode.Position): vscode.Hover | undefined {
    const session = this.edits.sessionOf(document.uri);
    if (!session || session.state === 'ended') return undefined;
    const change = this.edits.decorations
      .changesOf(session, document)
      .find((c) => c.anchor === position.line || c.removed.includes(position.line));
    if (!change) return undefined;
    const markdown = new vscode.MarkdownString(undefined, true);
    markdown.appendMarkdown(
      change.added.length
        ? vscode.l10n.t('**Proposed** ({0} lines):', change.added.length)
        : vscode.l10n.t('**Proposed:** delete these lines.'),
    );
    if (change.hidden)
      markdown.appendMarkdown(
        `\n\n$(warning) ${vscode.l10n.t('Hidden characters are shown as ⟨U+…⟩: they would be written as they are.')}`,
      );
    if (change.added.length) markdown.appendCodeblock(change.added.join('\n'), document.languageId);
    return new vscode.Hover(markdown);
  }

  provideCodeActions(document: vscode.TextDocument, range: vscode.Range | vscode.Selection): vscode.CodeAction[] {
    if (document.uri.scheme !== 'file') return [];
    // A selection only: a lightbulb on every blank line is noise (the context menu and the keys work on an empty line).
    if (range.isEmpty) return [];
    const action = new vscode.CodeAction(
      vscode.l10n.t('Edit with Unified Inference'),
      vscode.CodeActionKind.RefactorRewrite,
    );
    action.command = { command: INLINE_EDIT_COMMANDS.start, title: vscode.l10n.t('Edit with Unified Inference') };
    return [action];
  }
}
