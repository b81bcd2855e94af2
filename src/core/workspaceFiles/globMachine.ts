// Matches a glob tree (globParse.ts) against a whole path without backtracking: the tree becomes
// a small automaton (globProgram.ts), run over the path one character at a time with the SET of
// states it may be in. Each character costs at most one visit per state, so a match takes at most
// 2 x states x (path length + 1) steps whatever the pattern: `*a*a*a*b` against 'aaaa...',
// `**/**/**/x`, `{a,b}{a,b}{a,b}...` stay linear. (The regular expressions this replaced
// backtracked: a short .gitignore line with a dozen stars held the extension host for tens of
// seconds against one long file name.)
// Speed for ordinary patterns: each state set met is kept with a table of where each character
// leads (a deterministic automaton built as needed, as RE2 does), so a path costs about one table
// read per character. Past MAX_CACHED_SETS sets (patterns such as `**/a??????????`), the run goes
// on set by set: still linear, only slower.
import type { GlobNode } from './globParse';
import { fold, GlobProgram, JUMP, MATCH, SPLIT } from './globProgram';

const ASCII = 128;
const UNKNOWN = -1;
/** The empty set: nothing further can match. */
const DEAD = -2;
/** No room left to keep a new set. */
const FULL = -3;
/** State sets kept per machine, each with a table of 128 entries for ASCII characters. */
const MAX_CACHED_SETS = 64;
/** Other characters remembered per kept set (file names could hold thousands of distinct ones). */
const MAX_OTHER_PER_SET = 256;

export class GlobMachine {
  private readonly program: GlobProgram;
  // Work space reused by every run (a run never yields, so one machine is never in two runs).
  private readonly seen: Uint32Array;
  private readonly stack: Int32Array;
  private current: Int32Array;
  private next: Int32Array;
  private generation = 0;
  private work = 0;
  // The kept sets (sorted states), whether each accepts, and where each character leads from it.
  private readonly sets: Int32Array[] = [];
  private readonly accepting: boolean[] = [];
  /** Where each ASCII character leads from each kept set: set id x 128 + code (grown as sets are kept). */
  private table = new Int32Array(4 * ASCII);
  private readonly otherNext: Array<Map<number, number> | undefined> = [];
  private readonly ids = new Map<string, number>();
  private readonly start: number;
  /** Characters every match starts / ends with (folded when case-insensitive): most paths are turned away on them alone. */
  private readonly prefix: readonly number[];
  private readonly suffix: readonly number[];

  /** Steps taken by the last `matches` (states visited, transitions tried, table reads): deterministic, for tests and benches. */
  lastSteps = 0;

  constructor(
    nodes: readonly GlobNode[],
    private readonly caseInsensitive: boolean,
  ) {
    this.program = new GlobProgram(nodes, caseInsensitive);
    this.prefix = literalRun(nodes, caseInsensitive);
    this.suffix = literalRun([...nodes].reverse(), caseInsensitive).reverse();
    const size = this.program.op.length;
    this.seen = new Uint32Array(size);
    // Each state visited pushes at most two others.
    this.stack = new Int32Array(2 * size + 2);
    this.current = new Int32Array(size);
    this.next = new Int32Array(size);
    this.newGeneration();
    this.start = this.keep(this.current, this.follow(this.current, 0, 0));
  }

  /** States of the automaton: a match takes at most 2 x size x (path length + 1) steps. */
  get size(): number {
    return this.program.op.length;
  }

  /** Whether the whole of `path` matches. */
  matches(path: string): boolean {
    this.lastSteps = this.prefix.length + this.suffix.length;
    if (!this.has(path, this.prefix, 0) || !this.has(path, this.suffix, path.length - this.suffix.length)) return false;
    let steps = this.lastSteps;
    let id = this.start;
    for (let i = 0; i < path.length && id !== DEAD; i++) {
      const code = path.charCodeAt(i);
      let to = code < ASCII ? (this.table[id * ASCII + code] as number) : (this.otherNext[id]?.get(code) ?? UNKNOWN);
      steps++;
      if (to === UNKNOWN) {
        to = this.transition(id, code);
        steps += this.work;
        if (to === FULL) return this.simulate(path, i + 1, steps);
      }
      id = to;
    }
    this.lastSteps = steps;
    return id !== DEAD && this.accepting[id] === true;
  }

  private has(path: string, literal: readonly number[], at: number): boolean {
    if (at < 0 || at + literal.length > path.length) return false;
    for (let j = 0; j < literal.length; j++) {
      const raw = path.charCodeAt(at + j);
      if ((this.caseInsensitive ? fold(raw) : raw) !== literal[j]) return false;
    }
    return true;
  }

  /** Where `code` leads from kept set `id` (kept too when there is room), computed from the states. */
  private transition(id: number, code: number): number {
    const count = this.stepAll(this.sets[id] as Int32Array, this.sets[id]?.length ?? 0, code, this.next);
    const to = count === 0 ? DEAD : this.keep(this.next, count);
    if (to !== FULL) {
      if (code < ASCII) this.table[id * ASCII + code] = to;
      else {
        const other = (this.otherNext[id] ??= new Map());
        if (other.size < MAX_OTHER_PER_SET) other.set(code, to);
      }
    }
    return to;
  }

  /** The rest of a run set by set, from `this.next` (the states after `path[from - 1]`). */
  private simulate(path: string, from: number, steps: number): boolean {
    let count = this.stepCount;
    for (let i = from; i < path.length && count > 0; i++) {
      [this.current, this.next] = [this.next, this.current];
      count = this.stepAll(this.current, count, path.charCodeAt(i), this.next);
      steps += this.work;
    }
    this.lastSteps = steps;
    for (let t = 0; t < count; t++) if (this.program.op[this.next[t] as number] === MATCH) return true;
    return false;
  }

  private stepCount = 0;

  /** The states `code` leads to from the first `count` of `states`, into `into`; returns their number (also in stepCount). */
  private stepAll(states: Int32Array, count: number, code: number, into: Int32Array): number {
    this.newGeneration();
    let work = 0;
    let reached = 0;
    for (let t = 0; t < count; t++) {
      const pc = states[t] as number;
      work++;
      if (this.program.reads(pc, code)) {
        reached = this.follow(into, reached, pc + 1);
        work += this.work;
      }
    }
    this.work = work;
    this.stepCount = reached;
    return reached;
  }

  /** The id of the set of the first `count` states of `list`, kept now if new; FULL when there is no room. */
  private keep(list: Int32Array, count: number): number {
    const set = list.slice(0, count).sort();
    const key = set.join(',');
    const known = this.ids.get(key);
    if (known !== undefined) return known;
    if (this.sets.length >= MAX_CACHED_SETS) return FULL;
    const id = this.sets.length;
    this.ids.set(key, id);
    this.sets.push(set);
    this.accepting.push(set.some((pc) => this.program.op[pc] === MATCH));
    if (this.table.length < (id + 1) * ASCII) {
      const grown = new Int32Array(this.table.length * 2);
      grown.set(this.table);
      this.table = grown;
    }
    this.table.fill(UNKNOWN, id * ASCII, (id + 1) * ASCII);
    this.otherNext.push(undefined);
    return id;
  }

  private newGeneration(): void {
    if (++this.generation === 0xffffffff) {
      this.seen.fill(0);
      this.generation = 1;
    }
  }

  /**
   * Adds state `start` and every state reached from it without reading a character (not seen in
   * this generation) to `list` from `count` on; returns the new count, the states visited in `work`.
   */
  private follow(list: Int32Array, count: number, start: number): number {
    const { op, x, y } = this.program;
    const { seen, stack } = this;
    const generation = this.generation;
    let work = 0;
    let top = 0;
    stack[top++] = start;
    while (top > 0) {
      const pc = stack[--top] as number;
      if (seen[pc] === generation) continue;
      seen[pc] = generation;
      work++;
      const kind = op[pc];
      if (kind === JUMP) {
        stack[top++] = x[pc] as number;
      } else if (kind === SPLIT) {
        stack[top++] = y[pc] as number;
        stack[top++] = x[pc] as number;
      } else {
        list[count++] = pc;
      }
    }
    this.work = work;
    return count;
  }
}

/** The codes of the single characters that open `nodes` (folded when case-insensitive). */
function literalRun(nodes: readonly GlobNode[], caseInsensitive: boolean): number[] {
  const run: number[] = [];
  for (const node of nodes) {
    if (node.kind !== 'char') break;
    run.push(caseInsensitive ? fold(node.code) : node.code);
  }
  return run;
}
