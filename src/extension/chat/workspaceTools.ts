// The function tools the chat offers models: read a workspace file, list files, search text. They
// see the workspace through WorkspaceFilesService only: real paths inside the folders, nothing
// excluded or .gitignored, reads capped by size before reading. A sensitive file is read only
// after the user allowed that very call (review names it); listing and searching leave sensitive
// files out. Every call goes through the user's approval (ToolApprovals) before it runs.
import { globMachine } from '../../core/workspaceFiles/glob';
import { MAX_BRACE_DEPTH, MAX_GLOB_LENGTH } from '../../core/workspaceFiles/globParse';
import type { ExclusionBaseline } from '../../core/workspaceFiles/exclusionBaseline';
import type { WorkspaceFile } from '../../core/workspaceFiles/workspaceFile';
import type { WorkspaceFiles } from '../../core/workspaceFiles/workspaceFiles';
import type { GatewayTool } from '../../core/answers/gatewayAnswer';
import type { WorkspaceFilesService } from '../workspaceFiles/workspaceFilesService';
import {
  NOTHING_SENSITIVE,
  type ToolCallRequest,
  type ToolOutcome,
  type ToolReview,
} from '../../core/answers/toolHost';

const MAX_READ_BYTES = 200_000;
const MAX_LISTED = 500;
const MAX_SEARCHED_FILES = 2_000;
const MAX_SEARCH_FILE_BYTES = 1_000_000;
const MAX_MATCHES = 100;

export const WORKSPACE_TOOLS: readonly GatewayTool[] = [
  {
    name: 'read_file',
    description: `Read a text file of the open workspace. Returns its content (at most the first ${MAX_READ_BYTES} bytes). Files excluded by the user's settings or .gitignore are not readable; sensitive files (keys, credentials, .env) need the user's approval each time.`,
    inputSchema: {
      type: 'object',
      properties: { path: { type: 'string', description: 'Workspace-relative path, e.g. src/index.ts' } },
      required: ['path'],
    },
  },
  {
    name: 'list_files',
    description:
      'List files of the open workspace matching a glob pattern (default: all files). Excluded, .gitignored and sensitive files are left out.',
    inputSchema: { type: 'object', properties: { pattern: { type: 'string', description: 'Glob, e.g. src/**/*.ts' } } },
  },
  {
    name: 'search_files',
    description:
      'Search the text files of the open workspace for a string (case-insensitive). Returns path:line: text for each match. Excluded, .gitignored and sensitive files are not searched.',
    inputSchema: {
      type: 'object',
      properties: { query: { type: 'string', description: 'Text to find' } },
      required: ['query'],
    },
  },
];

const plural = (count: number, word: string): string => `${count} ${word}${count === 1 ? '' : 's'}`;

function sensitiveNote(count: number): string {
  return count ? `\n[${plural(count, 'sensitive file')} (keys, credentials, .env files) left out]` : '';
}

export class WorkspaceTools {
  constructor(private readonly service: WorkspaceFilesService) {}

  /** The sensitive files a call would read, for the approval to name. Never throws. `baseline`: the conversation's (see WorkspaceFilesService.open). */
  async review(call: ToolCallRequest, baseline?: ExclusionBaseline): Promise<ToolReview> {
    if (call.name !== 'read_file' || typeof call.input.path !== 'string') return NOTHING_SENSITIVE;
    try {
      const resolved = await (await this.service.open(baseline)).resolve(call.input.path);
      return resolved.ok ? { sensitivePaths: resolved.file.sensitive } : NOTHING_SENSITIVE;
    } catch {
      return NOTHING_SENSITIVE;
    }
  }

  async run(
    call: ToolCallRequest,
    signal: AbortSignal,
    review: ToolReview = NOTHING_SENSITIVE,
    baseline?: ExclusionBaseline,
  ): Promise<ToolOutcome> {
    const files = await this.service.open(baseline);
    switch (call.name) {
      case 'read_file':
        return readFileTool(files, call.input, review);
      case 'list_files':
        return listFilesTool(files, call.input, signal);
      case 'search_files':
        return searchFilesTool(files, call.input, signal);
      default:
        return { content: `There is no tool named ${call.name}.`, isError: true };
    }
  }
}

async function similarPaths(files: WorkspaceFiles, path: string): Promise<string[]> {
  const base = (path.split('/').pop() ?? '').toLowerCase().split('.')[0] ?? '';
  if (!base) return [];
  const { files: listed } = await files.list({ limit: 5_000 });
  return listed
    .map((file) => file.display)
    .filter((p) => p.toLowerCase().includes(base))
    .slice(0, 5);
}

async function readFileTool(
  files: WorkspaceFiles,
  input: Record<string, unknown>,
  review: ToolReview,
): Promise<ToolOutcome> {
  const path = typeof input.path === 'string' ? input.path : '';
  const resolved = await files.resolve(path);
  if (!resolved.ok) {
    const similar = resolved.problem === 'missing' ? await similarPaths(files, path) : [];
    return { content: `${resolved.message}${similar.length ? ` Similar: ${similar.join(', ')}` : ''}`, isError: true };
  }
  const file: WorkspaceFile = resolved.file;
  // The approval named what was sensitive when it was asked; a file that became sensitive since
  // (a link swapped, a setting added) was not shown to the user.
  const unapproved = file.sensitive.filter((p) => !review.sensitivePaths.includes(p));
  if (unapproved.length)
    return {
      content: `${unapproved.join(', ')} is sensitive and was not approved for reading; ask again.`,
      isError: true,
    };
  const content = await files.read(file, MAX_READ_BYTES);
  if (content.kind === 'binary')
    return { content: `${file.display} is a binary file (${content.size} bytes).`, isError: true };
  const note = content.truncated
    ? `\n[showing the first ${content.bytesRead} of ${content.size} bytes: the file is larger than the ${MAX_READ_BYTES}-byte cap]`
    : '';
  return { content: content.text + note };
}

async function listFilesTool(
  files: WorkspaceFiles,
  input: Record<string, unknown>,
  signal: AbortSignal,
): Promise<ToolOutcome> {
  const pattern = typeof input.pattern === 'string' && input.pattern.trim() ? input.pattern.trim() : '**/*';
  // A refused pattern would match nothing: say so rather than walk the folders for no file.
  if (!globMachine(pattern))
    return {
      content: `The pattern cannot be used: at most ${MAX_GLOB_LENGTH} characters, braces nested at most ${MAX_BRACE_DEPTH} deep, ranges such as [a-z] in order.`,
      isError: true,
    };
  const listing = await files.list({ include: pattern, limit: MAX_LISTED, signal });
  const paths = listing.files.map((file) => file.display).sort();
  const notes =
    (listing.truncated ? `\n[more than ${MAX_LISTED} files; narrow the pattern]` : '') +
    sensitiveNote(listing.sensitiveLeftOut);
  if (paths.length === 0) return { content: `No files match ${pattern}.${notes}` };
  return { content: paths.join('\n') + notes };
}

async function searchFilesTool(
  files: WorkspaceFiles,
  input: Record<string, unknown>,
  signal: AbortSignal,
): Promise<ToolOutcome> {
  const query = typeof input.query === 'string' ? input.query.trim() : '';
  if (!query) return { content: 'An empty query finds nothing.', isError: true };
  const needle = query.toLowerCase();
  const matches: string[] = [];
  let partial = 0;
  const listing = await files.list({ limit: MAX_SEARCHED_FILES, signal });
  for (const file of listing.files) {
    if (signal.aborted || matches.length >= MAX_MATCHES) break;
    const content = await files.read(file, MAX_SEARCH_FILE_BYTES).catch(() => undefined);
    if (content?.kind !== 'text') continue;
    if (content.truncated) partial++;
    const lines = content.text.split(/\r?\n/);
    for (let i = 0; i < lines.length && matches.length < MAX_MATCHES; i++) {
      const line = lines[i] ?? '';
      if (line.toLowerCase().includes(needle)) matches.push(`${file.display}:${i + 1}: ${line.trim().slice(0, 200)}`);
    }
  }
  const notes =
    (matches.length >= MAX_MATCHES ? `\n[stopped at ${MAX_MATCHES} matches]` : '') +
    (listing.truncated ? `\n[only the first ${MAX_SEARCHED_FILES} files were searched]` : '') +
    (partial
      ? `\n[${plural(partial, 'file')} larger than ${MAX_SEARCH_FILE_BYTES} bytes: only their start was searched]`
      : '') +
    sensitiveNote(listing.sensitiveLeftOut);
  if (matches.length === 0) return { content: `No matches for "${query}".${notes}` };
  return { content: matches.join('\n') + notes };
}
