// What a completion may be sent, gathered after the debounce (never on a keystroke): the document's
// own text around the cursor, its imports, and snippets of open editors and recently edited files
// of the same language. Everything goes through the workspace gate: a document that is sensitive,
// excluded or ignored gets no completion at all, such neighbours are never read, and an untrusted
// workspace sends no neighbour.
import * as vscode from 'vscode';
import type { WorkspaceFiles } from '../../core/workspaceFiles/workspaceFiles';
import type { CompletionInput, CompletionSnippet } from '../../core/completions/completionInput';
import type { WorkspaceFilesService } from '../workspaceFiles/workspaceFilesService';
import type { RecentEdits } from './recentEdits';

/** Neighbouring files sent at most (best first): more costs tokens for little. */
const MAX_SNIPPETS = 3;
/** Characters of one snippet: about 40 lines of code. */
const SNIPPET_CHARS = 1_500;
/** The lines at the top of a file looked through for imports, and the characters of them sent. */
const IMPORT_SCAN_LINES = 120;
const IMPORT_CHARS = 1_500;
const IMPORT_LINE =
  /^\s*(import\b|from\s+\S+\s+import\b|#\s*include\b|using\s+[\w.]+\s*;|require\b|use\s+[\w:]+|package\s+\w|(const|let|var)\s+.+=\s*require\()/;

export interface CompletionPlace {
  readonly document: vscode.TextDocument;
  readonly prefix: string;
  readonly suffix: string;
  /** The document's offset where the prefix window starts (0: the prefix is the whole top). */
  readonly prefixStart: number;
}

export class CompletionContext {
  constructor(
    private readonly workspaceFiles: WorkspaceFilesService,
    private readonly recent: RecentEdits,
    private readonly isTrusted: () => boolean = () => vscode.workspace.isTrusted,
  ) {}

  /** The input for `place`, or undefined when the gate says the document itself may not be sent. */
  async input(place: CompletionPlace, signal: AbortSignal): Promise<CompletionInput | undefined> {
    const { document } = place;
    const files = await this.workspaceFiles.open();
    const path = await this.admittedPath(files, document);
    if (path === undefined || signal.aborted || document.isClosed) return undefined;
    const snippets = this.isTrusted() ? await this.snippets(files, document, signal) : [];
    return {
      languageId: document.languageId,
      path,
      prefix: place.prefix,
      suffix: place.suffix,
      imports: place.prefixStart > 0 ? importsOf(document) : '',
      snippets,
    };
  }

  /** The path the model sees, when the gate admits the document (untitled documents: their name). */
  private async admittedPath(files: WorkspaceFiles, document: vscode.TextDocument): Promise<string | undefined> {
    if (document.uri.scheme === 'untitled') return document.uri.path.replace(/^\/+/, '') || 'untitled';
    const resolution = await this.workspaceFiles.resolveUri(files, document.uri);
    if (!resolution.ok || resolution.file.sensitive.length > 0) return undefined;
    return resolution.file.display;
  }

  private async snippets(
    files: WorkspaceFiles,
    document: vscode.TextDocument,
    signal: AbortSignal,
  ): Promise<CompletionSnippet[]> {
    const candidates = new Map<string, { document: vscode.TextDocument; line: number }>();
    const byUri = new Map(vscode.workspace.textDocuments.map((open) => [open.uri.toString(), open]));
    for (const edit of this.recent.of(document.languageId, document.uri)) {
      const open = byUri.get(edit.uri.toString());
      if (open && !open.isClosed) candidates.set(edit.uri.toString(), { document: open, line: edit.line });
    }
    for (const editor of vscode.window.visibleTextEditors) {
      const other = editor.document;
      const key = other.uri.toString();
      if (
        key === document.uri.toString() ||
        other.languageId !== document.languageId ||
        candidates.has(key) ||
        other.uri.scheme !== 'file'
      )
        continue;
      candidates.set(key, { document: other, line: editor.visibleRanges[0]?.start.line ?? 0 });
    }
    const snippets: CompletionSnippet[] = [];
    for (const { document: other, line } of candidates.values()) {
      if (snippets.length >= MAX_SNIPPETS || signal.aborted) break;
      if (other.uri.scheme !== 'file') continue;
      const resolution = await this.workspaceFiles.resolveUri(files, other.uri);
      if (!resolution.ok || resolution.file.sensitive.length > 0) continue;
      const text = snippetAround(other, line);
      if (text.trim()) snippets.push({ path: resolution.file.display, text });
    }
    return snippets;
  }
}

/**
 * At most SNIPPET_CHARS of `document` around `line`, bounded by characters, not lines: a
 * neighbour with a minified line would otherwise cost a read of megabytes per request.
 */
function snippetAround(document: vscode.TextDocument, line: number): string {
  const at = document.offsetAt(new vscode.Position(line, 0));
  const firstLine = document.offsetAt(new vscode.Position(Math.max(0, line - 15), 0));
  const start = Math.max(firstLine, at - Math.floor(SNIPPET_CHARS / 3));
  const last = Math.min(document.lineCount - 1, line + 25);
  const end = Math.min(document.offsetAt(document.lineAt(last).range.end), start + SNIPPET_CHARS);
  return document.getText(new vscode.Range(document.positionAt(start), document.positionAt(end)));
}

/** The import lines at the top of the document (they tell the model which names exist). */
function importsOf(document: vscode.TextDocument): string {
  const lines: string[] = [];
  let chars = 0;
  for (let index = 0; index < Math.min(document.lineCount, IMPORT_SCAN_LINES); index++) {
    const text = document.lineAt(index).text;
    if (!IMPORT_LINE.test(text)) continue;
    if (chars + text.length + 1 > IMPORT_CHARS) break;
    lines.push(text);
    chars += text.length + 1;
  }
  return lines.join('\n');
}
