// The edit tools as the model sees them: names, what each does, and its arguments' schema. The
// descriptions say the rules the tools enforce, so a model gets them right the first time.
import type { GatewayTool } from '../answers/gatewayAnswer';

const EDIT_TOOL_NAMES = ['create_file', 'replace_in_file', 'delete_file', 'rename_file'] as const;
export type EditToolName = (typeof EDIT_TOOL_NAMES)[number];

export function isEditTool(name: string): name is EditToolName {
  return (EDIT_TOOL_NAMES as readonly string[]).includes(name);
}

const PATH = { type: 'string', description: 'Workspace-relative path, e.g. src/index.ts' };
const ASKED = 'The user reviews the change (shown as a diff) and allows or denies it.';

export const EDIT_TOOLS: readonly GatewayTool[] = [
  {
    name: 'create_file',
    description: `Create a text file in the open workspace with the given content (missing folders are created). Fails if the file exists, unless overwrite is true (then its whole content is replaced). ${ASKED}`,
    inputSchema: {
      type: 'object',
      properties: {
        path: PATH,
        content: { type: 'string', description: 'The whole content of the file' },
        overwrite: { type: 'boolean', description: 'Replace an existing file (default false)' },
      },
      required: ['path', 'content'],
    },
  },
  {
    name: 'replace_in_file',
    description: `Change an existing text file of the workspace, by either "edits" (search/replace pairs: each search text must match the file exactly once, including indentation; copy it from read_file) or "diff" (a unified diff of this one file; context and removed lines must match exactly). On a mismatch nothing is written and the error quotes the closest lines. ${ASKED}`,
    inputSchema: {
      type: 'object',
      properties: {
        path: PATH,
        edits: {
          type: 'array',
          description: 'Applied in order, each to the result of the previous one',
          items: {
            type: 'object',
            properties: {
              search: { type: 'string', description: 'Exact text to find (once)' },
              replace: { type: 'string', description: 'Text to put in its place' },
            },
            required: ['search', 'replace'],
          },
        },
        diff: {
          type: 'string',
          description: 'A unified diff ("@@ -12,3 +12,4 @@" hunks) of this file, instead of edits',
        },
      },
      required: ['path'],
    },
  },
  {
    name: 'delete_file',
    description: `Delete a file of the workspace (to the trash where the system has one; the user can undo it). ${ASKED}`,
    inputSchema: { type: 'object', properties: { path: PATH }, required: ['path'] },
  },
  {
    name: 'rename_file',
    description: `Rename or move a file of the workspace; the new path must not exist (missing folders are created). Open editors follow the file. ${ASKED}`,
    inputSchema: {
      type: 'object',
      properties: { path: PATH, newPath: { type: 'string', description: 'The new workspace-relative path' } },
      required: ['path', 'newPath'],
    },
  },
];
