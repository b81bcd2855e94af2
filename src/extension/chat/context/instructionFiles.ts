// Reads the workspace's instruction files (AGENTS.md, .github/copilot-instructions.md at each
// folder root) through the workspace-files service, so a file left out by files.exclude or
// .gitignore, or a sensitive one, is never read. Only in a trusted workspace: an untrusted
// repository is exactly where an injected instruction would hide, and a file in it must not
// steer the model before the user decided to trust it.
import * as vscode from 'vscode';
import * as nodePath from 'node:path';
import { readSettings } from '../../config';
import type { WorkspaceFilesService } from '../../workspaceFiles/workspaceFilesService';
import {
  INSTRUCTION_FILE_MAX_BYTES,
  INSTRUCTION_FILE_NAMES,
  type InstructionFile,
} from '../../../core/chat/context/instructionPrompt';

export interface InstructionGate {
  readonly trusted: boolean;
  readonly enabled: boolean;
}

/** Whether instruction files may be read now: the setting is on and the workspace trusted. */
function instructionGate(): InstructionGate {
  return { trusted: vscode.workspace.isTrusted, enabled: readSettings().chat.useInstructionFiles };
}

export async function readInstructionFiles(
  service: WorkspaceFilesService,
  gate: InstructionGate = instructionGate(),
): Promise<InstructionFile[]> {
  if (!gate.trusted || !gate.enabled) return [];
  const folders = (vscode.workspace.workspaceFolders ?? []).filter((folder) => folder.uri.scheme === 'file');
  if (folders.length === 0) return [];
  const files = await service.open();
  const found: InstructionFile[] = [];
  for (const folder of folders) {
    for (const name of INSTRUCTION_FILE_NAMES) {
      const resolved = await files.resolve(nodePath.join(folder.uri.fsPath, ...name.split('/')));
      if (!resolved.ok || resolved.file.sensitive.length) continue;
      const content = await files.read(resolved.file, INSTRUCTION_FILE_MAX_BYTES).catch(() => undefined);
      if (!content || content.kind !== 'text' || !content.text.trim()) continue;
      found.push({
        path: resolved.file.display,
        absolute: files.absolutePath(resolved.file),
        text: content.text,
        truncated: content.truncated,
      });
    }
  }
  return found;
}
