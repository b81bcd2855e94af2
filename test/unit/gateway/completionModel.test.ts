// The completion model answers the REAL continuation of the file, wrapped the ways real models
// wrap it; and the key end-to-end property: the extension's post-processing turns every wrapped
// answer back into exactly what the user would have typed, for lines and blocks over real files,
// with the stop rule aborting the stream early (the gateway sees the connection close).
import * as assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { CompletionPrompt } from '../../../src/core/completions/completionInput';
import { buildCompletionPrompt } from '../../../src/core/completions/completionPrompt';
import { completionIsComplete } from '../../../src/core/completions/completionStop';
import { insertionFrom } from '../../../src/core/completions/completionText';
import { FAULT_HEADER, type LocalGateway } from '../../gateway/index';
import { PYTHON_FILE, REPO_FILES, REPO_ROOT, realHoles, type RealHole } from './completionCases';
import { chatChunks, json, parseSse, post, useGateway, type Json } from './helpers';

const MODEL = 'sim-openai/gpt-sim-complete';
const WRAPS = ['', 'fence', 'prefix', 'overlap', 'explain', 'fence+explain', 'prefix+fence+explain', 'overlap+prefix'];
const folder = mkdtempSync(join(tmpdir(), 'ui-completion-files-'));
for (const file of REPO_FILES) {
  mkdirSync(dirname(join(folder, file)), { recursive: true });
  writeFileSync(join(folder, file), readFileSync(join(REPO_ROOT, file)));
}
writeFileSync(join(folder, 'stats.py'), PYTHON_FILE);

function promptFor(hole: RealHole): CompletionPrompt {
  return buildCompletionPrompt(
    {
      languageId: hole.languageId,
      path: hole.file,
      prefix: hole.prefix,
      suffix: hole.suffix,
      imports: '',
      snippets: [],
    },
    { contextTokens: 16000, maxInputTokens: 3000 },
  );
}

function request(prompt: CompletionPrompt, stream: boolean): Json {
  return {
    model: MODEL,
    stream,
    max_tokens: prompt.maxTokens,
    ...(stream ? { stream_options: { include_usage: true } } : {}),
    messages: [
      { role: 'system', content: prompt.system },
      { role: 'user', content: prompt.user },
    ],
  };
}

async function whole(gw: LocalGateway, prompt: CompletionPrompt, wrap = '', uncut = false): Promise<string> {
  const body = await json(
    await post(
      gw,
      '/chat/completions',
      { ...request(prompt, false), ...(uncut ? { max_tokens: undefined } : {}) },
      wrap ? { [FAULT_HEADER]: `wrap=${wrap}` } : {},
    ),
  );
  return body.choices[0].message.content as string;
}

/** Streams as the provider does: stops reading and aborts as soon as the answer is complete. */
async function streamed(
  gw: LocalGateway,
  prompt: CompletionPrompt,
  tag: string,
  wrap = '',
): Promise<{ raw: string; stopped: boolean }> {
  const controller = new AbortController();
  const response = await post(
    gw,
    '/chat/completions',
    request(prompt, true),
    { 'x-test': tag, ...(wrap ? { [FAULT_HEADER]: `wrap=${wrap}` } : {}) },
    controller.signal,
  );
  const decoder = new TextDecoder();
  let buffer = '';
  let raw = '';
  let stopped = false;
  try {
    for await (const bytes of response.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(bytes, { stream: true });
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const data = buffer.slice(0, end).replace(/^data: /, '');
        buffer = buffer.slice(end + 2);
        if (data !== '[DONE]')
          raw += ((JSON.parse(data) as Json).choices?.[0]?.delta?.content as string | undefined) ?? '';
      }
      if (completionIsComplete(raw, prompt)) {
        stopped = true;
        controller.abort();
        break;
      }
    }
  } catch (error) {
    // Leaving the loop after the abort rejects the body's iterator: expected.
    if (!controller.signal.aborted) throw error;
  }
  return { raw, stopped };
}

describe('local gateway: the completion model (sim-openai/gpt-sim-complete)', () => {
  const gw = useGateway({ completionFiles: folder });
  const holes = realHoles();
  after(() => rmSync(folder, { recursive: true, force: true }));

  it('finds real holes of every kind to test with', () => {
    assert.ok(
      holes.filter((h) => h.shape === 'line').length >= 6 && holes.filter((h) => h.shape === 'block').length >= 6,
      `${holes.length} holes`,
    );
    assert.ok(
      holes.every((h) => promptFor(h).shape === h.shape),
      'the shape rule agrees with each hole',
    );
  });

  it('answers the exact continuation of the file, and keeps going past the line or block', async () => {
    for (const hole of holes) {
      const answer = await whole(gw(), promptFor(hole));
      const text = hole.prefix + hole.expected + hole.suffix;
      assert.equal(answer, text.slice(hole.prefix.length, hole.prefix.length + answer.length), hole.name);
      assert.ok(answer.startsWith(hole.expected), hole.name);
      if (hole.suffix.trim() !== '')
        assert.ok(answer.length > hole.expected.length + 1, `${hole.name}: more than the hole`);
    }
  });

  it('wraps the answer as asked: fence, repeated prefix, suffix overlap, a sentence before', async () => {
    const hole = holes.find((h) => h.shape === 'line' && h.languageId === 'typescript') as RealHole;
    const prompt = promptFor(hole);
    const plain = await whole(gw(), prompt, '', true);
    const lineStart = hole.prefix.slice(hole.prefix.lastIndexOf('\n') + 1);
    assert.equal(await whole(gw(), prompt, 'fence', true), `\`\`\`ts\n${plain}\`\`\`\n`);
    assert.equal(await whole(gw(), prompt, 'prefix', true), lineStart + plain);
    assert.equal(
      await whole(gw(), prompt, 'overlap', true),
      hole.expected + (/^\s*\S[^\n]*/.exec(hole.suffix)?.[0] ?? ''),
    );
    assert.equal(await whole(gw(), prompt, 'explain', true), `Here is the completion:\n${plain}`);
    assert.equal(
      await whole(gw(), prompt, 'fence+explain', true),
      `Here is the completion:\n\n\`\`\`ts\n${plain}\`\`\`\n\nThis continues the code at the marker.\n`,
    );
  });

  it('gives back exactly what the user would have typed, for every wrap, lines and blocks, through post-processing', async () => {
    for (const hole of holes) {
      const prompt = promptFor(hole);
      for (const wrap of WRAPS)
        assert.equal(
          insertionFrom(await whole(gw(), prompt, wrap), prompt),
          hole.expected,
          `${hole.name} (wrap=${wrap || 'none'})`,
        );
    }
  });

  it('gives back the same when the stream is stopped by the stop rule, which stops before the answer ends', async () => {
    let n = 0;
    for (const hole of holes) {
      const prompt = promptFor(hole);
      for (const wrap of ['', 'fence+explain+prefix']) {
        const { raw, stopped } = await streamed(gw(), prompt, `stop-${n++}`, wrap);
        // At the end of the file the answer ends by itself.
        if (hole.suffix.trim() !== '')
          assert.ok(stopped, `${hole.name} (wrap=${wrap || 'none'}): stopped early: ${JSON.stringify(raw)}`);
        assert.equal(insertionFrom(raw, prompt), hole.expected, `${hole.name} (wrap=${wrap || 'none'})`);
      }
    }
  });

  it('lets the client abort: the gateway sees the connection close long before the continuation is sent', async () => {
    const hole = holes.find((h) => h.shape === 'block') as RealHole;
    const prompt = promptFor(hole);
    await streamed(gw(), prompt, 'abort-me');
    const aborted = await gw().waitForRequest((r) => r.headers['x-test'] === 'abort-me');
    assert.equal(await aborted.closed, 'aborted');
    const response = await post(gw(), '/chat/completions', request(prompt, true), { 'x-test': 'read-all' });
    const chunks = chatChunks(await response.text());
    const full = await gw().waitForRequest((r) => r.headers['x-test'] === 'read-all');
    assert.equal(await full.closed, 'completed');
    assert.ok(aborted.bytesWritten * 3 < full.bytesWritten, `${aborted.bytesWritten} of ${full.bytesWritten} bytes`);
    const usage = chunks.at(-1)?.usage as Json;
    assert.ok(usage.prompt_tokens > 0 && usage.completion_tokens > 5, 'usage in the final chunk');
  });

  it('answers the same on /messages, streamed and whole', async () => {
    const hole = holes.find((h) => h.shape === 'block' && h.languageId === 'python') as RealHole;
    const prompt = promptFor(hole);
    const body = {
      model: `${MODEL}::wrap=fence`,
      max_tokens: prompt.maxTokens,
      system: prompt.system,
      messages: [{ role: 'user', content: prompt.user }],
    };
    const message = await json(await post(gw(), '/messages', body));
    assert.equal(insertionFrom(message.content[0].text as string, prompt), hole.expected);
    const stream = await post(gw(), '/messages', { ...body, stream: true });
    const text = parseSse(await stream.text())
      .map((e) => JSON.parse(e.data) as Json)
      .filter((d) => d.type === 'content_block_delta')
      .map((d) => d.delta.text as string)
      .join('');
    assert.equal(text, message.content[0].text);
  });

  it('says so in a short line when no file continues the prefix, and chats as usual without a hole prompt', async () => {
    const prompt = buildCompletionPrompt(
      {
        languageId: 'typescript',
        path: 'src/new.ts',
        prefix: 'const somethingNobodyWrote = ',
        suffix: ';\n',
        imports: '',
        snippets: [],
      },
      { contextTokens: 16000, maxInputTokens: 3000 },
    );
    assert.equal(await whole(gw(), prompt), '// sim: no continuation found');
    const chat = await json(
      await post(gw(), '/chat/completions', { model: MODEL, messages: [{ role: 'user', content: 'hello' }] }),
    );
    assert.match(chat.choices[0].message.content as string, /Local simulation/);
  });

  it('refuses an unknown wrap, naming the header', async () => {
    const response = await post(
      gw(),
      '/chat/completions',
      { model: MODEL, messages: [{ role: 'user', content: 'x' }] },
      { [FAULT_HEADER]: 'wrap=fence+poem' },
    );
    assert.equal(response.status, 400);
    assert.equal((await json(response)).error.param, FAULT_HEADER);
  });

  it('picks, among files that share the end of the prefix, the one that matches furthest back', async () => {
    const other = mkdtempSync(join(tmpdir(), 'ui-completion-twins-'));
    const shared = Array.from({ length: 30 }, (_, i) => `  const step${i} = run(${i});\n`).join('');
    try {
      writeFileSync(join(other, 'a.ts'), `export function alpha() {\n${shared}  alphaEnd();\n}\n`);
      writeFileSync(join(other, 'b.ts'), `export function beta() {\n${shared}  betaEnd();\n}\n`);
      gw().setCompletionFiles(other);
      const prompt = buildCompletionPrompt(
        {
          languageId: 'typescript',
          path: 'b.ts',
          prefix: `export function beta() {\n${shared}  `,
          suffix: '\n}\n',
          imports: '',
          snippets: [],
        },
        { contextTokens: 16000, maxInputTokens: 3000 },
      );
      assert.ok(shared.length > 400, 'the longest tail tried is in both files');
      assert.equal(await whole(gw(), prompt), 'betaEnd();\n}\n');
    } finally {
      gw().setCompletionFiles(folder);
      rmSync(other, { recursive: true, force: true });
    }
  });

  it('reads only text files under the size cap, and a folder set after the start', async () => {
    const other = mkdtempSync(join(tmpdir(), 'ui-completion-other-'));
    try {
      writeFileSync(join(other, 'binary.ts'), `const binaryOnly = 1;\0\nnext();\n`);
      writeFileSync(join(other, 'huge.ts'), `const hugeOnly = 1;\nnext();\n${'// pad\n'.repeat(60_000)}`);
      writeFileSync(join(other, 'small.ts'), 'const smallOnly = 1;\nnext();\n');
      gw().setCompletionFiles(other);
      const ask = (prefix: string): Promise<string> =>
        whole(
          gw(),
          buildCompletionPrompt(
            { languageId: 'typescript', path: 'a.ts', prefix, suffix: '', imports: '', snippets: [] },
            { contextTokens: 16000, maxInputTokens: 3000 },
          ),
        );
      assert.equal(await ask('const smallOnly = 1;\n'), 'next();\n');
      assert.equal(await ask('const binaryOnly = 1;'), '// sim: no continuation found');
      assert.equal(await ask('const hugeOnly = 1;\n'), '// sim: no continuation found');
    } finally {
      gw().setCompletionFiles(folder);
      rmSync(other, { recursive: true, force: true });
    }
  });
});
