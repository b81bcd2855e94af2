// Everything a command started, also what left its process group (setsid, a double fork), so a
// stop, a timeout or the command's end can kill it all. A process group kill misses a child that
// made a session of its own; once its parent exits it is re-parented to init and no longer looks
// like ours. Two nets catch it on Linux (/proc), neither depending on timing alone:
// - a marker in the environment the command starts with, which every descendant inherits unless it
//   clears its environment (found by reading /proc/<pid>/environ, readable for our own processes);
// - the descendant tree, walked by parent pid while the command runs (periodically) and once more
//   just before killing, so a child that cleared its environment is known while its parent lives.
// Each process is remembered with its start time, so a pid the system reused is never killed.
// The process group is signalled only while a process of the command, verified and stopped, is
// still in it: once a group is empty its id may be taken by an unrelated process's new group.
// Elsewhere (macOS, Windows) there is no /proc: the group kill (POSIX) or taskkill /T (Windows,
// the tree by parent pid) is all there is.
import { promises as fs, readFileSync } from 'node:fs';

export interface ProcessEntry {
  readonly pid: number;
  readonly ppid: number;
  /** The process group's id. */
  readonly pgrp: number;
  /** The executable's name as the kernel keeps it (at most 15 bytes). */
  readonly name: string;
  /** Clock ticks after boot: with the pid, the identity of one process (pids are reused). */
  readonly startTime: string;
  /** 'Z' (zombie) and 'X' (dead) are gone already. */
  readonly state: string;
}

const live = (entry: ProcessEntry): boolean => entry.state !== 'Z' && entry.state !== 'X';

/** One /proc/<pid>/stat line; undefined when it is not one. The name in parentheses may contain anything, ')' too. */
export function parseProcStat(text: string): ProcessEntry | undefined {
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  if (open < 1 || close < open) return undefined;
  const pid = Number(text.slice(0, open).trim());
  // After the name: state (field 3), ppid (4), pgrp (5), ... starttime (22).
  const fields = text
    .slice(close + 1)
    .trim()
    .split(/\s+/);
  const ppid = Number(fields[1]);
  const pgrp = Number(fields[2]);
  const startTime = fields[19];
  const state = fields[0];
  if (!Number.isInteger(pid) || !Number.isInteger(ppid) || !Number.isInteger(pgrp) || !startTime || !state)
    return undefined;
  return { pid, ppid, pgrp, name: text.slice(open + 1, close), startTime, state };
}

/** One process as /proc shows it now, read synchronously (nothing else of ours runs between this and a signal). */
export function readProcess(pid: number, procRoot = '/proc'): ProcessEntry | undefined {
  try {
    return parseProcStat(readFileSync(`${procRoot}/${pid}/stat`, 'utf8'));
  } catch {
    return undefined; // gone
  }
}

/**
 * A process of `stopped` (each verified by start time, and stopped so it cannot exit by itself)
 * that, read again now, is still the same live process and in group `pgid`; undefined when none
 * is. Only then does `pgid` still name the command's group: an empty group's id may be reused.
 */
export function groupMember(
  pgid: number,
  stopped: readonly ProcessEntry[],
  reread: (pid: number) => ProcessEntry | undefined,
): ProcessEntry | undefined {
  for (const entry of stopped) {
    const now = reread(entry.pid);
    if (now && now.startTime === entry.startTime && live(now) && now.pgrp === pgid) return now;
  }
  return undefined;
}

/** Every process of `table` below one of `roots` (by parent pid), roots excluded. */
export function descendantsOf(roots: Iterable<number>, table: readonly ProcessEntry[]): ProcessEntry[] {
  const children = new Map<number, ProcessEntry[]>();
  for (const entry of table) {
    const list = children.get(entry.ppid);
    if (list) list.push(entry);
    else children.set(entry.ppid, [entry]);
  }
  const found = new Map<number, ProcessEntry>();
  const queue = [...roots];
  while (queue.length) {
    const pid = queue.pop() as number;
    for (const child of children.get(pid) ?? []) {
      if (found.has(child.pid)) continue;
      found.set(child.pid, child);
      queue.push(child.pid);
    }
  }
  return [...found.values()];
}

/** Whether a NUL-separated environment block holds `name=value` exactly. */
export function environHas(block: Buffer, name: string, value: string): boolean {
  const entry = Buffer.from(`${name}=${value}`);
  for (let at = block.indexOf(entry); at !== -1; at = block.indexOf(entry, at + 1)) {
    const startsEntry = at === 0 || block[at - 1] === 0;
    const endsEntry = at + entry.length === block.length || block[at + entry.length] === 0;
    if (startsEntry && endsEntry) return true;
  }
  return false;
}

/** Bounded: a process table larger than this is read only this far. */
const MAX_PROCESSES = 65_536;
/** A kill is repeated while something of the command is still found (a fork racing the kill), at most this often. */
const MAX_KILL_ROUNDS = 8;

export class ProcessTree {
  /** Every process seen below the command, by pid, with its start time. */
  private readonly known = new Map<number, ProcessEntry>();
  /** The command's own process as first seen (its pid alone may be reused once it has ended). */
  private root: ProcessEntry | undefined;

  constructor(
    /** The command's own process (the shell; on POSIX also its process group's id). */
    private readonly rootPid: number,
    /** The environment variable every process of this command starts with. */
    private readonly marker: { readonly name: string; readonly value: string },
    private readonly procRoot = '/proc',
  ) {}

  /** Whether this system has a /proc to look at (Linux). */
  static async available(procRoot = '/proc'): Promise<boolean> {
    return fs.access(`${procRoot}/self/stat`).then(
      () => true,
      () => false,
    );
  }

  /** The processes tracked so far (tests wait on this). */
  get tracked(): readonly ProcessEntry[] {
    return [...this.known.values()];
  }

  /** Walks the tree below the command (and below what was seen before) and remembers it. */
  async scan(): Promise<void> {
    const table = await this.table();
    for (const entry of descendantsOf(this.roots(table), table)) if (live(entry)) this.known.set(entry.pid, entry);
  }

  /** The processes whose children are ours: the command and what was seen below it, each still the same process. */
  private roots(table: readonly ProcessEntry[]): number[] {
    const byPid = new Map(table.map((entry) => [entry.pid, entry]));
    const now = byPid.get(this.rootPid);
    if (!this.root && now) this.root = now;
    const same = (seen: ProcessEntry | undefined): boolean =>
      seen !== undefined && byPid.get(seen.pid)?.startTime === seen.startTime;
    return [
      ...(same(this.root) ? [this.rootPid] : []),
      ...[...this.known.values()].filter(same).map((entry) => entry.pid),
    ];
  }

  /**
   * Kills everything below the command, everything carrying the marker, everything seen before
   * that still runs as the same process, and the process group while one of those is in it;
   * repeated while anything is left.
   */
  async killAll(signalGroup: () => void): Promise<void> {
    for (let round = 0; round < MAX_KILL_ROUNDS; round++) {
      const table = await this.table();
      const byPid = new Map(table.map((entry) => [entry.pid, entry]));
      const targets = new Map<number, ProcessEntry>();
      for (const pid of this.roots(table)) targets.set(pid, byPid.get(pid) as ProcessEntry);
      for (const entry of descendantsOf(targets.keys(), table)) targets.set(entry.pid, entry);
      for (const entry of await this.carryingMarker(table)) targets.set(entry.pid, entry);
      const alive = [...targets.values()].filter(live);
      // Stopped first so none forks while the others are being killed; then killed.
      for (const entry of alive) signal(entry.pid, 'SIGSTOP');
      // The group catches what is in it but was never seen; its id is ours only while one of ours is in it.
      if (round === 0 && groupMember(this.rootPid, alive, (pid) => readProcess(pid, this.procRoot))) signalGroup();
      for (const entry of alive) {
        this.known.set(entry.pid, entry);
        signal(entry.pid, 'SIGKILL');
      }
      if (alive.length === 0) return;
    }
  }

  private async carryingMarker(table: readonly ProcessEntry[]): Promise<ProcessEntry[]> {
    const found: ProcessEntry[] = [];
    for (const entry of table) {
      if (entry.pid === process.pid || !live(entry)) continue;
      const block = await fs.readFile(`${this.procRoot}/${entry.pid}/environ`).catch(() => undefined);
      if (block && environHas(block, this.marker.name, this.marker.value)) found.push(entry);
    }
    return found;
  }

  private async table(): Promise<ProcessEntry[]> {
    const names = await fs.readdir(this.procRoot).catch(() => [] as string[]);
    const entries: ProcessEntry[] = [];
    for (const name of names) {
      if (!/^\d+$/.test(name)) continue;
      if (entries.length >= MAX_PROCESSES) break;
      const text = await fs.readFile(`${this.procRoot}/${name}/stat`, 'utf8').catch(() => undefined);
      const entry = text === undefined ? undefined : parseProcStat(text);
      if (entry) entries.push(entry);
    }
    return entries;
  }
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // gone already, or not ours
  }
}
