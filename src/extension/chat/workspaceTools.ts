// The function tools the chat offers models: read a workspace file, list files, search text. They
// only ever see the open workspace folders (paths are resolved and checked to stay inside), and
// every call goes through the user's approval (ToolApprovals) before it runs.
import * as vscode from 'vscode';
import type { GatewayTool } from '../languageModels/gatewayAnswer';
import type { ToolCallRequest, ToolOutcome } from './replyRunner';

const MAX_READ_BYTES = 200_000;
const MAX_LISTED = 500;
const MAX_SEARCHED_FILES = 2_000;
const MAX_SEARCH_FILE_BYTES = 1_000_000;
const MAX_MATCHES = 100;

export const WORKSPACE_TOOLS: readonly GatewayTool[] = [
  {
    name: 'read_file',
    description: 'Read a text file of the open workspace. Returns its content (at most 200 KB).',
    inputSchema: { type: 'object', properties: { path: { type: 'string', description: 'Workspace-relative path, e.g. src/index.ts' } }, required: ['path'] },
  },
  {
    name: 'list_files',
    description: 'List files of the open workspace matching a glob pattern (default: all files), excluding ignored folders.',
    inputSchema: { type: 'object', properties: { pattern: { type: 'string', description: 'Glob, e.g. src/**/*.ts' } } },
  },
  {
    name: 'search_files',
    description: 'Search the text files of the open workspace for a string (case-insensitive). Returns path:line: text for each match.',
    inputSchema: { type: 'object', properties: { query: { type: 'string', description: 'Text to find' } }, required: ['query'] },
  },
];

function folders(): readonly vscode.WorkspaceFolder[] {
  return vscode.workspace.workspaceFolders ?? [];
}

/** A workspace-relative path as a URI inside a workspace folder, or undefined when it would leave it. */
export function resolveWorkspacePath(path: string): vscode.Uri | undefined {
  const clean = path.trim().replace(/\\/g, '/').replace(/^\.\//, '');
  if (!clean || clean.startsWith('/') || /^[a-z]+:/i.test(clean) || clean.split('/').includes('..')) return undefined;
  const list = folders();
  // In a multi-root workspace a path may start with a folder's name (as asRelativePath writes it).
  const named = list.length > 1 ? list.find((folder) => clean.startsWith(`${folder.name}/`)) : undefined;
  const folder = named ?? list[0];
  if (!folder) return undefined;
  const relative = named ? clean.slice(named.name.length + 1) : clean;
  return vscode.Uri.joinPath(folder.uri, ...relative.split('/').filter(Boolean));
}

export function relativePath(uri: vscode.Uri): string {
  return vscode.workspace.asRelativePath(uri, folders().length > 1);
}

async function readText(uri: vscode.Uri, maxBytes: number): Promise<{ text: string; truncated: boolean } | undefined> {
  const bytes = await vscode.workspace.fs.readFile(uri);
  const slice = bytes.subarray(0, maxBytes);
  // A NUL byte in the first kilobytes: a binary file, which a model cannot use.
  if (slice.subarray(0, 8192).includes(0)) return undefined;
  return { text: new TextDecoder().decode(slice), truncated: bytes.length > maxBytes };
}

async function similarPaths(path: string): Promise<string[]> {
  const base = path.split('/').pop()?.toLowerCase() ?? '';
  const files = await vscode.workspace.findFiles('**/*', undefined, MAX_LISTED);
  return files.map(relativePath).filter((p) => base && p.toLowerCase().includes(base.split('.')[0] ?? base)).slice(0, 5);
}

async function readFileTool(input: Record<string, unknown>): Promise<ToolOutcome> {
  const path = typeof input.path === 'string' ? input.path : '';
  const uri = resolveWorkspacePath(path);
  if (!uri) return { content: `"${path}" is not a path inside the workspace.`, isError: true };
  try {
    const read = await readText(uri, MAX_READ_BYTES);
    if (!read) return { content: `${path} is a binary file.`, isError: true };
    return { content: read.truncated ? `${read.text}\n[truncated at ${MAX_READ_BYTES} bytes]` : read.text };
  } catch {
    const similar = await similarPaths(path);
    return { content: `No file ${path} in the workspace.${similar.length ? ` Similar: ${similar.join(', ')}` : ''}`, isError: true };
  }
}

async function listFilesTool(input: Record<string, unknown>): Promise<ToolOutcome> {
  const pattern = typeof input.pattern === 'string' && input.pattern.trim() ? input.pattern.trim() : '**/*';
  const files = await vscode.workspace.findFiles(pattern, undefined, MAX_LISTED + 1);
  const paths = files.slice(0, MAX_LISTED).map(relativePath).sort();
  if (paths.length === 0) return { content: `No files match ${pattern}.` };
  return { content: paths.join('\n') + (files.length > MAX_LISTED ? `\n[more than ${MAX_LISTED} files; narrow the pattern]` : '') };
}

async function searchFilesTool(input: Record<string, unknown>, signal: AbortSignal): Promise<ToolOutcome> {
  const query = typeof input.query === 'string' ? input.query.trim() : '';
  if (!query) return { content: 'An empty query finds nothing.', isError: true };
  const needle = query.toLowerCase();
  const matches: string[] = [];
  const files = await vscode.workspace.findFiles('**/*', undefined, MAX_SEARCHED_FILES);
  for (const uri of files) {
    if (signal.aborted || matches.length >= MAX_MATCHES) break;
    const read = await readText(uri, MAX_SEARCH_FILE_BYTES).catch(() => undefined);
    if (!read) continue;
    const lines = read.text.split(/\r?\n/);
    for (let i = 0; i < lines.length && matches.length < MAX_MATCHES; i++) {
      const line = lines[i] ?? '';
      if (line.toLowerCase().includes(needle)) matches.push(`${relativePath(uri)}:${i + 1}: ${line.trim().slice(0, 200)}`);
    }
  }
  if (matches.length === 0) return { content: `No matches for "${query}".` };
  return { content: matches.join('\n') + (matches.length >= MAX_MATCHES ? `\n[stopped at ${MAX_MATCHES} matches]` : '') };
}

export async function runWorkspaceTool(call: ToolCallRequest, signal: AbortSignal): Promise<ToolOutcome> {
  switch (call.name) {
    case 'read_file':
      return readFileTool(call.input);
    case 'list_files':
      return listFilesTool(call.input);
    case 'search_files':
      return searchFilesTool(call.input, signal);
    default:
      return { content: `There is no tool named ${call.name}.`, isError: true };
  }
}
