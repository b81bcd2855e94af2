// Matches a glob tree (globParse.ts) against a whole path without backtracking: the tree becomes
// a small nondeterministic automaton, run over the path one character at a time with the set of
// states it may be in (Thompson's construction). Each character costs at most one visit per
// state, so a match takes at most about 2 x states x (path length + 1) steps, whatever the
// pattern: `*a*a*a*b` against 'aaaa...', `**/**/**/x`, `{a,b}{a,b}{a,b}...` stay linear. (The
// regular expressions this replaced backtracked: a short .gitignore line with a dozen stars held
// the extension host for tens of seconds against one long file name.)
import type { GlobNode } from './globParse';

const CHAR = 0;
const CLASS = 1;
const NOT_SLASH = 2;
const ANY = 3;
const SPLIT = 4;
const JUMP = 5;
const MATCH = 6;

const SLASH = 0x2f;

interface CharClass {
  readonly negated: boolean;
  readonly ranges: ReadonlyArray<readonly [number, number]>;
}

/** One character folded as a case-insensitive regular expression folds it (upper case, no widening to ASCII). */
function fold(code: number): number {
  if (code < 0x80) return code >= 0x61 && code <= 0x7a ? code - 0x20 : code;
  const upper = String.fromCharCode(code).toUpperCase();
  if (upper.length !== 1) return code;
  const folded = upper.charCodeAt(0);
  return folded < 0x80 ? code : folded;
}

function inRanges(ranges: CharClass['ranges'], code: number): boolean {
  for (const [low, high] of ranges) if (code >= low && code <= high) return true;
  return false;
}

export class GlobMachine {
  private readonly op: Uint8Array;
  private readonly x: Int32Array;
  private readonly y: Int32Array;
  private readonly classes: readonly CharClass[];
  // Work space reused by every run (a run never yields, so one machine is never in two runs).
  private readonly current: Int32Array;
  private readonly next: Int32Array;
  private readonly stack: Int32Array;
  private readonly seen: Uint32Array;
  private generation = 0;

  /** Steps taken by the last `matches` (states visited plus transitions tried): deterministic, for tests and benches. */
  lastSteps = 0;

  constructor(nodes: readonly GlobNode[], private readonly caseInsensitive: boolean) {
    const program = new Program(caseInsensitive);
    program.emitAll(nodes);
    program.emit(MATCH);
    this.op = Uint8Array.from(program.op);
    this.x = Int32Array.from(program.x);
    this.y = Int32Array.from(program.y);
    this.classes = program.classes;
    const size = this.op.length;
    this.current = new Int32Array(size);
    this.next = new Int32Array(size);
    // Each state visited pushes at most two others.
    this.stack = new Int32Array(2 * size + 2);
    this.seen = new Uint32Array(size);
  }

  /** States of the automaton (the bound on steps per character). */
  get size(): number {
    return this.op.length;
  }

  /** Whether the whole of `path` matches. */
  matches(path: string): boolean {
    let current = this.current;
    let next = this.next;
    let count = this.follow(current, 0, 0);
    let steps = this.followSteps;
    for (let i = 0; i < path.length; i++) {
      if (count === 0) break; // no state left: nothing further can match
      const raw = path.charCodeAt(i);
      const code = this.caseInsensitive ? fold(raw) : raw;
      this.newGeneration();
      let nextCount = 0;
      for (let t = 0; t < count; t++) {
        const pc = current[t] as number;
        steps++;
        if (this.step(pc, code, raw)) {
          nextCount = this.follow(next, nextCount, pc + 1, false);
          steps += this.followSteps;
        }
      }
      [current, next] = [next, current];
      count = nextCount;
    }
    this.lastSteps = steps;
    for (let t = 0; t < count; t++) if (this.op[current[t] as number] === MATCH) return true;
    return false;
  }

  private followSteps = 0;

  private newGeneration(): void {
    if (++this.generation === 0xffffffff) {
      this.seen.fill(0);
      this.generation = 1;
    }
  }

  /** Adds state `start` and every state reached from it without reading a character to `list` (from `count` on); returns the new count. */
  private follow(list: Int32Array, count: number, start: number, fresh = true): number {
    if (fresh) this.newGeneration();
    const { op, x, y, seen, stack } = this;
    const generation = this.generation;
    let steps = 0;
    let top = 0;
    stack[top++] = start;
    while (top > 0) {
      const pc = stack[--top] as number;
      if (seen[pc] === generation) continue;
      seen[pc] = generation;
      steps++;
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
    this.followSteps = steps;
    return count;
  }

  private step(pc: number, code: number, raw: number): boolean {
    switch (this.op[pc]) {
      case CHAR:
        return this.x[pc] === code;
      case NOT_SLASH:
        return raw !== SLASH;
      case ANY:
        return true;
      case CLASS:
        return this.inClass(this.classes[this.x[pc] as number] as CharClass, raw);
      default:
        return false; // MATCH reads nothing
    }
  }

  private inClass(charClass: CharClass, raw: number): boolean {
    let member = inRanges(charClass.ranges, raw);
    if (!member && this.caseInsensitive) {
      // A case-insensitive class holds a character when it holds another case of it.
      const text = String.fromCharCode(raw);
      const lower = text.toLowerCase();
      const upper = text.toUpperCase();
      member = (lower.length === 1 && inRanges(charClass.ranges, lower.charCodeAt(0))) || (upper.length === 1 && inRanges(charClass.ranges, upper.charCodeAt(0)));
    }
    return charClass.negated ? !member && raw !== SLASH : member;
  }
}

/** The instructions of an automaton, emitted from a tree. */
class Program {
  readonly op: number[] = [];
  readonly x: number[] = [];
  readonly y: number[] = [];
  readonly classes: CharClass[] = [];

  constructor(private readonly caseInsensitive: boolean) {}

  emit(kind: number, x = 0, y = 0): number {
    this.op.push(kind);
    this.x.push(x);
    this.y.push(y);
    return this.op.length - 1;
  }

  emitAll(nodes: readonly GlobNode[]): void {
    for (const node of nodes) this.emitNode(node);
  }

  private emitNode(node: GlobNode): void {
    switch (node.kind) {
      case 'char':
        this.emit(CHAR, this.caseInsensitive ? fold(node.code) : node.code);
        return;
      case 'class':
        this.classes.push(node);
        this.emit(CLASS, this.classes.length - 1);
        return;
      case 'one':
        this.emit(node.crossesFolders ? ANY : NOT_SLASH);
        return;
      case 'many': {
        // loop: SPLIT read, out; read: one character; JUMP loop; out:
        const loop = this.emit(SPLIT);
        this.emit(node.crossesFolders ? ANY : NOT_SLASH);
        this.emit(JUMP, loop);
        this.patch(loop, loop + 1, this.op.length);
        return;
      }
      case 'optional': {
        const split = this.emit(SPLIT);
        this.emitAll(node.body);
        this.patch(split, split + 1, this.op.length);
        return;
      }
      case 'either': {
        const jumps: number[] = [];
        node.branches.forEach((branch, index) => {
          const last = index === node.branches.length - 1;
          const split = last ? -1 : this.emit(SPLIT);
          this.emitAll(branch);
          if (!last) {
            jumps.push(this.emit(JUMP));
            this.patch(split, split + 1, this.op.length);
          }
        });
        for (const jump of jumps) this.x[jump] = this.op.length;
        return;
      }
    }
  }

  private patch(split: number, first: number, second: number): void {
    this.x[split] = first;
    this.y[split] = second;
  }
}
