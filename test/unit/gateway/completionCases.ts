// Real holes in real source files (files of this repository, and a Python file): for each, the
// prefix and suffix an editor would have and the exact text the user would have typed there.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface RealHole {
  readonly name: string;
  readonly file: string;
  readonly languageId: string;
  readonly prefix: string;
  readonly suffix: string;
  /** What the user would have typed: the insertion the pipeline must produce. */
  readonly expected: string;
  readonly shape: 'line' | 'block';
}

export const REPO_ROOT = join(__dirname, '..', '..', '..', '..');
export const REPO_FILES = ['src/core/context/tokenEstimate.ts', 'test/gateway/text.ts', 'src/core/context/trimText.ts'];

export const PYTHON_FILE = `"""Small statistics helpers."""

import math


def mean(values):
    if not values:
        return 0.0
    return sum(values) / len(values)


def variance(values):
    m = mean(values)
    return sum((v - m) ** 2 for v in values) / len(values)


def stdev(values):
    return math.sqrt(variance(values))
`;

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** The cursor after `return ` of a return line, the rest of the line left to type (nothing after the cursor on the line). */
function returnHoles(name: string, text: string, languageId: string, count: number): RealHole[] {
  const out: RealHole[] = [];
  for (const start of lineStarts(text)) {
    const end = text.indexOf('\n', start);
    const line = text.slice(start, end);
    const m = /^(\s+return )(.{8,})$/.exec(line);
    if (!m || out.length >= count) continue;
    const at = start + (m[1] as string).length;
    out.push({
      name: `${name}: the rest of a return line`,
      file: name,
      languageId,
      prefix: text.slice(0, at),
      suffix: text.slice(end),
      expected: text.slice(at, end),
      shape: 'line',
    });
  }
  return out;
}

/** The cursor inside a call's parentheses, the editor having closed them: `f(|);`. */
function argumentHoles(name: string, text: string, languageId: string, count: number): RealHole[] {
  const out: RealHole[] = [];
  for (const start of lineStarts(text)) {
    const end = text.indexOf('\n', start);
    const line = text.slice(start, end);
    const m = /^(\s*[^'"`/]*?\w\()([^()'"`]{3,})\);$/.exec(line);
    if (!m || out.length >= count) continue;
    const at = start + (m[1] as string).length;
    const close = at + (m[2] as string).length;
    out.push({
      name: `${name}: the arguments of a call`,
      file: name,
      languageId,
      prefix: text.slice(0, at),
      suffix: text.slice(close),
      expected: text.slice(at, close),
      shape: 'line',
    });
  }
  return out;
}

/** The cursor on the indented first line of a function body whose `}` the editor already closed. */
function braceBlocks(name: string, text: string, count: number): RealHole[] {
  const out: RealHole[] = [];
  const lines = text.split('\n');
  let offset = 0;
  for (let i = 0; i < lines.length && out.length < count; offset += (lines[i] as string).length + 1, i++) {
    const line = lines[i] as string;
    if (!/^(export )?function .*\{$/.test(line)) continue;
    const indent = /^\s*/.exec(line)?.[0] ?? '';
    const closeAt = lines.findIndex((l, j) => j > i && l === `${indent}}`);
    if (closeAt < 0 || closeAt - i < 2 || closeAt - i > 9) continue;
    const bodyIndent = /^\s*/.exec(lines[i + 1] as string)?.[0] ?? '';
    const bodyStart = offset + line.length + 1 + bodyIndent.length;
    const bodyEnd = offset + lines.slice(i, closeAt).join('\n').length;
    out.push({
      name: `${name}: the body of ${line.slice(0, 40)}`,
      file: name,
      languageId: 'typescript',
      prefix: text.slice(0, bodyStart),
      suffix: text.slice(bodyEnd),
      expected: text.slice(bodyStart, bodyEnd),
      shape: 'block',
    });
  }
  return out;
}

/** The cursor on the indented first line of a Python function body. */
function pythonBlocks(name: string, text: string): RealHole[] {
  const out: RealHole[] = [];
  const lines = text.split('\n');
  let offset = 0;
  for (let i = 0; i < lines.length; offset += (lines[i] as string).length + 1, i++) {
    const line = lines[i] as string;
    if (!/^def .*:$/.test(line)) continue;
    let last = i + 1;
    while (last + 1 < lines.length && /^\s+\S/.test(lines[last + 1] as string)) last++;
    const bodyStart = offset + line.length + 1 + 4;
    const bodyEnd = offset + lines.slice(i, last + 1).join('\n').length;
    out.push({
      name: `${name}: the body of ${line}`,
      file: name,
      languageId: 'python',
      prefix: text.slice(0, bodyStart),
      suffix: text.slice(bodyEnd),
      expected: text.slice(bodyStart, bodyEnd),
      shape: 'block',
    });
  }
  return out;
}

export function realHoles(): RealHole[] {
  const holes: RealHole[] = [];
  for (const file of REPO_FILES) {
    const text = readFileSync(join(REPO_ROOT, file), 'utf8');
    holes.push(
      ...returnHoles(file, text, 'typescript', 2),
      ...argumentHoles(file, text, 'typescript', 1),
      ...braceBlocks(file, text, 2),
    );
  }
  holes.push(...returnHoles('stats.py', PYTHON_FILE, 'python', 2), ...pythonBlocks('stats.py', PYTHON_FILE));
  return holes;
}
