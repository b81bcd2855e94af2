// An edit call turned into the exact change it makes, before anyone is asked: paths checked
// through the workspace-files gate (inside the folders, links leading out refused, excluded files
// refused, sensitive ones named), the file's current text read from the editor's document (what
// the edit applies to, unsaved changes included), the new text computed, and the review diff made.
// A call that cannot work (no match, a path outside) becomes a refusal the model reads.
import * as vscode from 'vscode';
import { applySearchReplace, type EditOutcome, type SearchReplaceEdit } from '../../core/edits/searchReplace';
import { applyUnifiedDiff } from '../../core/edits/unifiedPatch';
import { reviewDiff } from '../../core/edits/reviewDiff';
import type { ExclusionBaseline } from '../../core/workspaceFiles/exclusionBaseline';
import type { GuardedPath } from '../../core/workspaceFiles/guardedWrites';
import type { WorkspaceFile } from '../../core/workspaceFiles/workspaceFile';
import type { WorkspaceFiles } from '../../core/workspaceFiles/workspaceFiles';
import type { ToolChange, ToolChangeFile } from '../../shared/chatModel';
import type { WorkspaceFilesService } from '../workspaceFiles/workspaceFilesService';
import type { EditToolName } from '../../core/edits/editDefinitions';

/** Text files larger than this are not edited by the tools (the diff, the model and the editor all suffer). */
const MAX_EDIT_BYTES = 1_000_000;

export interface PlannedPath {
  readonly uri: vscode.Uri;
  readonly display: string;
}

/** Size and modification time on disk when reviewed: a file deleted or renamed must be the one shown. */
export interface DiskStamp {
  readonly size: number;
  readonly mtime: number;
}

/** The reviewed change of one call. `run` writes exactly this, or nothing. */
export class EditPlan {
  constructor(
    readonly tool: EditToolName,
    readonly action: ToolChangeFile['action'],
    readonly from: PlannedPath,
    readonly change: ToolChange,
    readonly sensitive: readonly string[],
    /** Files written whose content can run code or steers the model: always asked. */
    readonly guarded: readonly GuardedPath[],
    readonly detail: {
      readonly to?: PlannedPath;
      readonly before?: string;
      readonly after?: string;
      readonly stamp?: DiskStamp;
    },
  ) {}

  /** Every file the call creates, changes, deletes or renames (both names), for the checkpoint. */
  get uris(): vscode.Uri[] {
    return this.detail.to ? [this.from.uri, this.detail.to.uri] : [this.from.uri];
  }
}

export type Planned = EditPlan | { readonly refusal: string };

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** The document's text if it is open (unsaved changes are what an edit applies to), else the file's. */
export async function documentText(uri: vscode.Uri): Promise<string> {
  return (await vscode.workspace.openTextDocument(uri)).getText();
}

/** An existing file's editable text, or why it is not editable. */
async function editableText(
  files: WorkspaceFiles,
  file: WorkspaceFile,
  uri: vscode.Uri,
): Promise<string | { refusal: string }> {
  const open = vscode.workspace.textDocuments.find((document) => document.uri.toString() === uri.toString());
  if (!open) {
    const content = await files.read(file, MAX_EDIT_BYTES);
    if (content.kind === 'binary')
      return { refusal: `${file.display} is a binary file: the edit tools change text files only.` };
    if (content.truncated)
      return {
        refusal: `${file.display} is ${content.size} bytes, more than the ${MAX_EDIT_BYTES}-byte limit of the edit tools.`,
      };
  }
  return documentText(uri);
}

function changeOf(files: ToolChangeFile[], diff: ReturnType<typeof reviewDiff>): ToolChange {
  return {
    files,
    diff: diff.text,
    ...(diff.truncated ? { truncated: true } : {}),
    added: diff.added,
    removed: diff.removed,
  };
}

/** New files get the line ending a person's new file would get (files.eol). */
function newFileText(content: string): string {
  const eol = vscode.workspace.getConfiguration('files').get<string>('eol');
  const crlf = eol === '\r\n' || (eol !== '\n' && process.platform === 'win32');
  return crlf ? content.replace(/\r?\n/g, '\r\n') : content;
}

function parseEdits(value: unknown): SearchReplaceEdit[] | string {
  if (!Array.isArray(value)) return '"edits" must be an array of {search, replace} objects.';
  const edits: SearchReplaceEdit[] = [];
  for (const [i, raw] of value.entries()) {
    const o = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
    const search = str(o.search);
    const replace = str(o.replace);
    if (search === undefined || replace === undefined)
      return `edits[${i}] must have a "search" and a "replace" string.`;
    edits.push({ search, replace });
  }
  return edits;
}

/** Computes the change of an edit call, reading the files as they are now (`baseline`: the conversation's, see WorkspaceFilesService.open). */
export async function planEdit(
  service: WorkspaceFilesService,
  tool: EditToolName,
  input: Record<string, unknown>,
  baseline?: ExclusionBaseline,
): Promise<Planned> {
  const files = await service.open(baseline);
  const path = str(input.path)?.trim() ?? '';
  if (!path) return { refusal: 'A "path" is required.' };
  const existing = async (): Promise<{ file: WorkspaceFile; uri: vscode.Uri } | { refusal: string }> => {
    const resolved = await files.resolve(path, 'write');
    if (!resolved.ok)
      return {
        refusal:
          resolved.problem === 'missing' && tool !== 'delete_file'
            ? `${resolved.message} (create it with create_file)`
            : resolved.message,
      };
    return { file: resolved.file, uri: service.uri(files, resolved.file) };
  };

  if (tool === 'create_file') {
    const content = str(input.content);
    if (content === undefined) return { refusal: '"content" (the whole text of the file) is required.' };
    const fresh = await files.resolveNew(path);
    if (fresh.ok) {
      const after = newFileText(content);
      const from = { uri: vscode.Uri.file(fresh.target.absolute), display: fresh.target.display };
      return new EditPlan(
        tool,
        'create',
        from,
        changeOf([{ action: 'create', path: from.display }], reviewDiff({ newPath: from.display, newText: after })),
        fresh.target.sensitive,
        fresh.target.guarded,
        { after },
      );
    }
    if (fresh.problem !== 'exists' || input.overwrite !== true) {
      return {
        refusal:
          fresh.problem === 'exists'
            ? `${fresh.message} Change it with replace_in_file, or pass overwrite: true to replace its whole content.`
            : fresh.message,
      };
    }
    const found = await existing();
    if ('refusal' in found) return found;
    const before = await editableText(files, found.file, found.uri);
    if (typeof before !== 'string') return before;
    return modification(tool, found, before, {
      ok: true,
      text: content.replace(/\r?\n/g, before.includes('\r\n') ? '\r\n' : '\n'),
    });
  }

  const found = await existing();
  if ('refusal' in found) return found;
  const from = { uri: found.uri, display: found.file.display };

  if (tool === 'replace_in_file') {
    const before = await editableText(files, found.file, found.uri);
    if (typeof before !== 'string') return before;
    const diff = str(input.diff);
    if (diff !== undefined && input.edits !== undefined) return { refusal: 'Send either "edits" or "diff", not both.' };
    if (diff !== undefined) return modification(tool, found, before, applyUnifiedDiff(before, diff));
    if (input.edits === undefined)
      return { refusal: 'Send "edits" (search/replace pairs) or "diff" (a unified diff).' };
    const edits = parseEdits(input.edits);
    if (typeof edits === 'string') return { refusal: edits };
    return modification(tool, found, before, applySearchReplace(before, edits));
  }

  const stamp = await files.stat(found.file);
  if (tool === 'delete_file') {
    const content = await files.read(found.file, MAX_EDIT_BYTES);
    const before = content.kind === 'text' && !content.truncated ? await documentText(found.uri) : undefined;
    const oldNote =
      content.kind === 'binary'
        ? `(binary file, ${content.size} bytes)`
        : before === undefined
          ? `(${content.size} bytes, too large to show)`
          : undefined;
    const diff = reviewDiff({
      oldPath: from.display,
      ...(before !== undefined ? { oldText: before } : {}),
      ...(oldNote ? { oldNote } : {}),
    });
    return new EditPlan(
      tool,
      'delete',
      from,
      changeOf([{ action: 'delete', path: from.display }], diff),
      found.file.sensitive,
      found.file.guarded,
      { stamp, ...(before !== undefined ? { before } : {}) },
    );
  }

  const newPath = str(input.newPath)?.trim() ?? '';
  if (!newPath) return { refusal: '"newPath" is required.' };
  const target = await files.resolveNew(newPath);
  if (!target.ok) return { refusal: target.message };
  const to = { uri: vscode.Uri.file(target.target.absolute), display: target.target.display };
  const sensitive = [...new Set([...found.file.sensitive, ...target.target.sensitive])];
  const guarded = [
    ...found.file.guarded,
    ...target.target.guarded.filter((g) => !found.file.guarded.some((f) => f.path === g.path)),
  ];
  const diff = reviewDiff({ oldPath: from.display, newPath: to.display });
  return new EditPlan(
    tool,
    'rename',
    from,
    changeOf([{ action: 'rename', path: from.display, to: to.display }], diff),
    sensitive,
    guarded,
    { to, stamp },
  );
}

function modification(
  tool: EditToolName,
  found: { file: WorkspaceFile; uri: vscode.Uri },
  before: string,
  outcome: EditOutcome,
): Planned {
  const display = found.file.display;
  if (!outcome.ok) return { refusal: `${display}: ${outcome.message}` };
  if (outcome.text === before)
    return { refusal: `${display}: the edit changes nothing (the new text equals the old).` };
  const diff = reviewDiff({ oldPath: display, newPath: display, oldText: before, newText: outcome.text });
  return new EditPlan(
    tool,
    'modify',
    { uri: found.uri, display },
    changeOf([{ action: 'modify', path: display }], diff),
    found.file.sensitive,
    found.file.guarded,
    { before, after: outcome.text },
  );
}
