// A glob tree (globParse.ts) as the instructions of a small nondeterministic automaton
// (Thompson's construction): one instruction reads one character, SPLIT and JUMP read none.
// globMachine.ts runs it.
import type { GlobNode } from './globParse';

const CHAR = 0;
const CLASS = 1;
const NOT_SLASH = 2;
const ANY = 3;
export const SPLIT = 4;
export const JUMP = 5;
export const MATCH = 6;

const SLASH = 0x2f;

interface CharClass {
  readonly negated: boolean;
  readonly ranges: ReadonlyArray<readonly [number, number]>;
}

/** One character folded as a case-insensitive regular expression folds it (upper case, never widened into ASCII). */
export function fold(code: number): number {
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

export class GlobProgram {
  readonly op: Uint8Array;
  /** CHAR: the (folded) code; CLASS: the class's index; SPLIT, JUMP: the (first) target. */
  readonly x: Int32Array;
  /** SPLIT: the second target. */
  readonly y: Int32Array;
  private readonly classes: readonly CharClass[];

  constructor(
    nodes: readonly GlobNode[],
    readonly caseInsensitive: boolean,
  ) {
    const emitter = new Emitter(caseInsensitive);
    emitter.emitAll(nodes);
    emitter.emit(MATCH);
    this.op = Uint8Array.from(emitter.op);
    this.x = Int32Array.from(emitter.x);
    this.y = Int32Array.from(emitter.y);
    this.classes = emitter.classes;
  }

  /** Whether the reading instruction at `pc` takes the character `raw`. */
  reads(pc: number, raw: number): boolean {
    switch (this.op[pc]) {
      case CHAR:
        return this.x[pc] === (this.caseInsensitive ? fold(raw) : raw);
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
      member =
        (lower.length === 1 && inRanges(charClass.ranges, lower.charCodeAt(0))) ||
        (upper.length === 1 && inRanges(charClass.ranges, upper.charCodeAt(0)));
    }
    return charClass.negated ? !member && raw !== SLASH : member;
  }
}

class Emitter {
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
