// Markdown stress benchmark (jsdom): the hostile-markdown unit tests' checks on the same inputs at
// full size (the unit tests take them just past the budgets they check; see
// test/unit/chatMarkdownHostile.test.ts), and the block grouping of a 6,000-block reply. Every
// check must hold here too; the table adds how long each took. jsdom builds DOM far slower than
// Chromium, so the largest inputs run at a quarter of the chat benchmark's size (250 KB).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as assert from 'node:assert/strict';
import { hostileInputs } from '../harness/hostileMarkdown';
import { assertShown, streamMetered } from '../unit/hostileChecks';
import { manual, render, streamSliced } from '../unit/markdownKit';

export interface MarkdownBenchOptions {
  outDir: string;
  /** Size of the largest inputs relative to the chat benchmark's (default 0.25: up to 250 KB). */
  scale: number;
}

interface Row {
  name: string;
  kb: number;
  wholeMs: number;
  streamedMs: number;
  frames: number;
  most: string;
  result: string;
}

function timed<T>(run: () => T): [T, number] {
  const started = performance.now();
  const value = run();
  return [value, performance.now() - started];
}

function hostileRow(input: ReturnType<typeof hostileInputs>[number]): Row {
  const row: Row = {
    name: input.name,
    kb: input.markdown.length / 1024,
    wholeMs: NaN,
    streamedMs: NaN,
    frames: 0,
    most: '',
    result: 'ok',
  };
  try {
    const [whole, wholeMs] = timed(() => render(input.markdown));
    row.wholeMs = wholeMs;
    assertShown(input, whole, 'whole');
    const [streamed, streamedMs] = timed(() => streamMetered(input));
    row.streamedMs = streamedMs;
    row.frames = streamed.frames;
    row.most = `${streamed.most.lexed} / ${streamed.most.sanitized} / ${streamed.most.highlighted}`;
    assertShown(input, streamed.element, 'streamed');
  } catch (error) {
    row.result = `FAILED: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
  }
  return row;
}

/** The grouping test at the size it ran at before it was sized down: 3,000 headings and lines. */
function groupingRow(): Row {
  const headings = 3000;
  const text = Array.from({ length: headings }, (_, i) => `# heading${i}\n\nline ${i}`).join('\n\n');
  const row: Row = {
    name: `blocks gathered into groups (${headings * 2} blocks)`,
    kb: text.length / 1024,
    wholeMs: NaN,
    streamedMs: NaN,
    frames: Math.ceil(text.length / 200),
    most: '',
    result: 'ok',
  };
  try {
    const [streamed, streamedMs] = timed(() =>
      streamSliced(
        text,
        () => 200,
        () => true,
      ),
    );
    row.streamedMs = streamedMs;
    const [whole, wholeMs] = timed(() => {
      const view = manual();
      view.view.setText(text);
      return view;
    });
    row.wholeMs = wholeMs;
    assert.equal(streamed.element.innerHTML, whole.element.innerHTML);
    assert.ok(streamed.element.querySelectorAll(':scope > .md-blocks').length >= 20);
    assert.ok(streamed.element.childNodes.length < 600, `${streamed.element.childNodes.length} nodes at the top`);
    assert.equal(streamed.element.querySelectorAll('h1').length, headings);
  } catch (error) {
    row.result = `FAILED: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
  }
  return row;
}

export async function runMarkdownBench(options: MarkdownBenchOptions): Promise<string> {
  const rows: Row[] = [];
  for (const input of hostileInputs(options.scale)) {
    rows.push(hostileRow(input));
    console.log(`markdown: ${rows.at(-1)?.name} ${rows.at(-1)?.result}`);
  }
  rows.push(groupingRow());
  const ms = (value: number): string => (Number.isFinite(value) ? value.toFixed(0) : '-');
  const table = [
    `# Markdown stress in jsdom (scale ${options.scale})`,
    '',
    '| input | KB | whole ms | streamed ms | frames | most per frame (lexed / sanitized / highlighted) | result |',
    '| --- | ---: | ---: | ---: | ---: | --- | --- |',
    ...rows.map(
      (row) =>
        `| ${row.name} | ${row.kb.toFixed(0)} | ${ms(row.wholeMs)} | ${ms(row.streamedMs)} | ${row.frames} | ${row.most} | ${row.result} |`,
    ),
    '',
    `total ${(rows.reduce((sum, row) => sum + (Number.isFinite(row.wholeMs) ? row.wholeMs : 0) + (Number.isFinite(row.streamedMs) ? row.streamedMs : 0), 0) / 1000).toFixed(1)} s; ${rows.filter((row) => row.result !== 'ok').length} failed`,
  ].join('\n');
  mkdirSync(options.outDir, { recursive: true });
  writeFileSync(join(options.outDir, 'markdown.md'), `${table}\n`);
  // A failed check fails the bench (run.ts exits 1), with the table shown first.
  if (rows.some((row) => row.result !== 'ok')) throw new Error(`${table}\n\nmarkdown: a check failed at full size`);
  return table;
}
