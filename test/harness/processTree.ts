// Finds a process among the descendants of one we started (Linux /proc), so a test can kill
// exactly it by pid: e.g. the extension host of our own VS Code server, never anyone else's.
import { readdirSync, readFileSync } from 'node:fs';

interface ProcessInfo {
  readonly pid: number;
  readonly ppid: number;
  readonly cmdline: string;
}

function processes(): ProcessInfo[] {
  const out: ProcessInfo[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // Field 4 (ppid) follows the command name in parentheses, which may itself hold spaces.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8').replace(/\0/g, ' ');
      out.push({ pid: Number(name), ppid, cmdline });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** Descendants of `root` whose command line matches `pattern`. */
export function descendantsMatching(root: number, pattern: RegExp): number[] {
  const all = processes();
  const inTree = new Set([root]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const info of all) {
      if (!inTree.has(info.pid) && inTree.has(info.ppid)) {
        inTree.add(info.pid);
        grew = true;
      }
    }
  }
  return all.filter((info) => info.pid !== root && inTree.has(info.pid) && pattern.test(info.cmdline)).map((info) => info.pid);
}
