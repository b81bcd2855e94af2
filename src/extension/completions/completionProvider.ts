// VS Code's side of inline completions: a thin adapter. Per keystroke it only checks cheap gates
// (scheme, on/off, language, selection), reads bounded windows around the cursor and asks the
// scheduler, which answers from a shown suggestion or the cache at once, or waits the debounce.
import * as vscode from 'vscode';
import { completionCacheKey } from '../../core/completions/completionCache';
import { insertionWithEnding, lfPlace } from '../../core/completions/completionEol';
import { PREFIX_WINDOW_CHARS, SUFFIX_WINDOW_CHARS } from '../../core/completions/completionWindow';
import type { CompletionsController } from './completionsController';
import { abortOnCancel } from '../lifecycle';

/** Only documents that are files the user edits: not output, git, settings, comments, debug console, search editors. */
const COMPLETION_SCHEMES: readonly string[] = ['file', 'untitled'];
export const COMPLETION_SELECTOR: vscode.DocumentSelector = COMPLETION_SCHEMES.map((scheme) => ({
  scheme,
  pattern: '**',
}));

export const ACCEPTED_COMMAND = 'unifiedInference.completions.accepted';

export class CompletionProvider implements vscode.InlineCompletionItemProvider {
  constructor(private readonly controller: CompletionsController) {}

  provideInlineCompletionItems(
    document: vscode.TextDocument,
    position: vscode.Position,
    context: vscode.InlineCompletionContext,
    token: vscode.CancellationToken,
  ): vscode.ProviderResult<vscode.InlineCompletionItem[]> {
    if (!COMPLETION_SCHEMES.includes(document.uri.scheme) || !this.controller.wants(document.languageId))
      return undefined;
    // The suggest widget is open: its item is what the user is choosing; ghost text would fight it.
    if (context.selectedCompletionInfo) return undefined;
    // A selection (or several cursors, as a snippet's placeholders make) would be replaced, not completed.
    const editor = vscode.window.activeTextEditor;
    if (editor?.document === document && (editor.selections.length > 1 || !editor.selection.isEmpty)) return undefined;
    const documentOffset = document.offsetAt(position);
    const prefixStart = Math.max(0, documentOffset - PREFIX_WINDOW_CHARS);
    const ending = document.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n';
    // The model, the cache and typing-through all see LF (completionEol.ts); the insertion goes back in the document's ending.
    const { offset, prefix, suffix } = lfPlace(
      ending,
      documentOffset,
      position.line,
      document.getText(new vscode.Range(document.positionAt(prefixStart), position)),
      document.getText(new vscode.Range(position, document.positionAt(documentOffset + SUFFIX_WINDOW_CHARS))),
    );
    const uri = document.uri.toString();
    const key = completionCacheKey(this.controller.modelId, uri, prefix, suffix);
    const controller = new AbortController();
    const cancelled = abortOnCancel(controller, token);
    const explicit = context.triggerKind === vscode.InlineCompletionTriggerKind.Invoke;
    return this.controller
      .complete(
        { document: uri, offset, prefix, suffix, key, explicit },
        { document, prefix, suffix, prefixStart },
        controller.signal,
      )
      .then(
        (lfInsertion) => {
          cancelled.dispose();
          if (!lfInsertion || token.isCancellationRequested) return undefined;
          const insertion = insertionWithEnding(lfInsertion, ending);
          const item = new vscode.InlineCompletionItem(insertion, new vscode.Range(position, position), {
            command: ACCEPTED_COMMAND,
            title: vscode.l10n.t('Inline completion accepted'),
            arguments: [insertion.length],
          });
          return [item];
        },
        () => {
          cancelled.dispose();
          return undefined;
        },
      );
  }
}
