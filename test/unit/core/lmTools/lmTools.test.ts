// The language model tools' manifest entries and the texts they return (pure parts; the tools
// themselves run in test/integration/languageModelTools.test.ts).
import * as assert from 'node:assert/strict';
import type { RankedResult } from '../../../../src/core/search/rankResults';
import { LM_TOOLS } from '../../../../src/core/lmTools/toolNames';
import { creditsText, rankingText, resultsText } from '../../../../src/core/lmTools/toolTexts';
import { readManifest } from '../../manifest';

interface ToolEntry {
  name: string;
  toolReferenceName?: string;
  displayName?: string;
  modelDescription?: string;
  userDescription?: string;
  inputSchema?: { type?: string; properties?: Record<string, unknown>; required?: string[] };
  canBeReferencedInPrompt?: boolean;
  icon?: string;
  tags?: string[];
  when?: string;
}

const manifest = readManifest<{
  contributes: {
    languageModelTools?: ToolEntry[];
    languageModelToolSets?: { name: string; description: string; tools: string[] }[];
  };
}>();

describe('language model tools: package.json', () => {
  const entries = manifest.contributes.languageModelTools ?? [];

  it('declares exactly the tools the extension registers, each with its # name', () => {
    assert.deepEqual(
      entries.map((e) => [e.name, e.toolReferenceName]).sort(),
      Object.values(LM_TOOLS)
        .map((t) => [t.name, t.reference])
        .sort(),
    );
  });

  it('gives every tool what VS Code and models need: display name, descriptions, an object input schema, icon and tags', () => {
    for (const entry of entries) {
      assert.match(entry.name, /^[\w-]+$/);
      assert.ok(entry.displayName && entry.userDescription, `${entry.name}: display name and user description`);
      assert.ok(
        (entry.modelDescription ?? '').length > 150,
        `${entry.name}: a model description that says what, when and what it costs`,
      );
      assert.equal(entry.canBeReferencedInPrompt, true, `${entry.name}: referenced by # in chat`);
      assert.match(entry.icon ?? '', /^\$\([\w-]+\)$/);
      assert.ok(entry.tags?.includes('unified-inference'));
      assert.equal(entry.inputSchema?.type, 'object');
      for (const required of entry.inputSchema?.required ?? [])
        assert.ok(entry.inputSchema?.properties?.[required], `${entry.name}: required "${required}" is a property`);
    }
  });

  it('offers the tools that read or write workspace files only in a trusted workspace', () => {
    const trusted = entries
      .filter((e) => e.when === 'isWorkspaceTrusted')
      .map((e) => e.name)
      .sort();
    assert.deepEqual(
      trusted,
      [LM_TOOLS.generateImage.name, LM_TOOLS.semanticSearch.name, LM_TOOLS.transcribe.name].sort(),
    );
  });

  it('groups all of them in one tool set', () => {
    const [set] = manifest.contributes.languageModelToolSets ?? [];
    assert.equal(set?.name, 'unifiedInference', 'the tool set people type as #unifiedInference in chat');
    assert.deepEqual(
      [...(set?.tools ?? [])].sort(),
      Object.values(LM_TOOLS)
        .map((t) => t.reference)
        .sort(),
    );
  });
});

describe('language model tools: result texts', () => {
  const now = Date.parse('2026-11-24T10:00:00.000Z');
  const spend = { session: 0.42, lastHour: 0.1, burnRatePerHour: undefined };

  it('#credits gives the balance, an ISO reset time and the session spend', () => {
    const text = creditsText(
      { kind: 'ok', reading: { credits: 12.5, reset: '2026-12-01T00:00:00.000Z', at: now } },
      spend,
      now,
    );
    assert.match(
      text,
      /^Balance: \$12\.50 \(USD credits\)\.\nReset: 2026-12-01T00:00:00\.000Z \(resets in 6 d 14 h\); new credits are issued then if the plan renews\./,
    );
    assert.match(text, /Spent in this VS Code session: \$0\.42\./);
  });

  it('#credits says what to do when it cannot read a balance, and never shows an unknown balance as $0', () => {
    assert.match(creditsText({ kind: 'noKey' }, spend, now), /Set API Key/);
    assert.match(creditsText({ kind: 'outOfCredits' }, spend, now), /^Out of credits/);
    const offline = creditsText({ kind: 'offline', message: 'ECONNREFUSED' }, spend, now);
    assert.equal(offline, 'The balance could not be read (ECONNREFUSED).');
    assert.doesNotMatch(offline, /\$0/);
    assert.match(
      creditsText({ kind: 'error', message: 'HTTP 500', last: { credits: 3, reset: 'soon', at: now } }, spend, now),
      /Last known balance: \$3\.00.*\nReset: the gateway did not say when\./,
    );
  });

  it('#rerank lists passages by rank with their input index and score, ignoring indexes the reranker invents', () => {
    const text = rankingText(
      'retry',
      ['alpha', 'beta  with\nspaces', 'gamma'],
      [
        { index: 1, relevance_score: 0.9 },
        { index: 7, relevance_score: 0.8 },
        { index: 0, relevance_score: Number.NaN },
      ],
      'sim-rerank',
    );
    assert.equal(
      text,
      '2 of 3 passages by relevance to "retry" (model sim-rerank; "passage N" is its 0-based index in the input):\n1. passage 1 (score 0.9000): beta with spaces\n2. passage 0 (score n/a): alpha',
    );
  });

  it('#semanticSearch gives path, 1-based lines, score and the text in a fence that the text cannot close', () => {
    const result = (file: string, startLine: number, endLine: number, text: string, score: number): RankedResult => ({
      record: { file, startLine, endLine },
      similarity: score,
      text,
      score,
      reranked: true,
    });
    const text = resultsText(
      'cache',
      [result('file:///w/src/a.ts', 0, 2, 'class A {}', 0.91), result('file:///w/doc.md', 4, 4, '```ts\nx\n```', 0.5)],
      undefined,
      (file) => file.replace('file:///w/', ''),
    );
    assert.match(text, /^2 results for "cache", reranked by relevance\./);
    assert.match(text, /1\. src\/a\.ts:1-3 \(score 0\.9100\)\n```\nclass A \{\}\n```/);
    assert.match(text, /2\. doc\.md:5 \(score 0\.5000\)\n````\n```ts\nx\n```\n````/);
    assert.match(
      resultsText('cache', [result('f', 0, 0, 'x', 0.2)], 'HTTP 503', (f) => f),
      /similarity order \(the rerank failed: HTTP 503\)/,
    );
    assert.match(
      resultsText('nothing', [], undefined, (f) => f),
      /^No indexed text matches "nothing"/,
    );
  });
});
