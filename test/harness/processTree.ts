// Finds a process among the descendants of one we started (Linux /proc), so a test can kill
// exactly it by pid: e.g. the extension host of our own VS Code server, never anyone else's.
// The /proc parsing and the tree walk are run_command's own (src/core/commands/processTree.ts).
import { readdirSync, readFileSync } from 'node:fs';
import { descendantsOf, readProcess, type ProcessEntry } from '../../src/core/commands/processTree';

function processes(): ProcessEntry[] {
  const out: ProcessEntry[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const entry = readProcess(Number(name));
    if (entry) out.push(entry); // else gone meanwhile
  }
  return out;
}

function commandLine(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return undefined; // gone meanwhile
  }
}

/** Descendants of `root` whose command line matches `pattern`. */
export function descendantsMatching(root: number, pattern: RegExp): number[] {
  return descendantsOf([root], processes())
    .map((entry) => entry.pid)
    .filter((pid) => {
      const line = commandLine(pid);
      return line !== undefined && pattern.test(line);
    });
}
