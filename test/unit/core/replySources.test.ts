// Sources from every shape the wire carries them in (wire-conventions "Sources", "Messages"), and
// what a hostile answer cannot do with them: a link that is not http(s), a title that is huge or
// disguised, thousands of citations, items of the wrong shape.
import * as assert from 'node:assert/strict';
import { chatCompletionAsChunks, messageAsEvents } from '../../../src/core/answers/wholeAnswers';
import { ServerToolBlocks } from '../../../src/core/answers/serverToolBlocks';
import { ChatStreamAccumulator } from '../../../src/core/streams/chatAccumulator';
import { MessageStreamAccumulator } from '../../../src/core/streams/messageAccumulator';
import { normalizeChatChunk } from '../../../src/core/parse/chat';
import { parseMessageEvent } from '../../../src/core/parse/messages';
import type { ChatCompletionChunk } from '../../../src/core/types/chat';
import type { MessageStreamEvent } from '../../../src/core/types/messages';
import {
  MAX_REPLY_SOURCES,
  MAX_SOURCE_TITLE_CHARS,
  SourceList,
  sanitizeSources,
  sourceLabel,
  sourcesMarkdown,
} from '../../../src/shared/replySources';

function chatChunk(delta: Record<string, unknown>): ChatCompletionChunk {
  return normalizeChatChunk({ choices: [{ index: 0, delta, finish_reason: null }] });
}

/** Events as the stream parser yields them: parsed from their JSON, unknown ones dropped. */
function messageEvents(...bodies: Record<string, unknown>[]): MessageStreamEvent[] {
  return bodies.flatMap((body) => {
    const event = parseMessageEvent(String(body.type), body);
    return event ? [event] : [];
  });
}

const citation = (url: unknown, title?: unknown): Record<string, unknown> => ({
  type: 'web_search_result_location',
  url,
  title,
  cited_text: 'cited',
  encrypted_index: 'x',
});

describe('reply sources', () => {
  describe('SourceList and its checks', () => {
    it('keeps http(s) addresses only, each once in order of first appearance; a later title fills in a missing one', () => {
      const list = new SourceList();
      for (const url of [
        'javascript:alert(1)',
        ' JavaScript:alert(1)',
        'java\tscript:alert(1)',
        'data:text/html,<script>alert(1)</script>',
        'file:///etc/passwd',
        'vscode://settings',
        'command:workbench.action.quit',
        'mailto:a@b.example',
        '//no-scheme.example',
        'https://',
        '',
        42,
        null,
        { url: 'https://nested.example' },
      ])
        list.add(url, 'bad');
      assert.deepEqual(list.list(), []);
      list.add('https://a.example/x');
      list.add('http://b.example/', 'B');
      list.add('https://a.example/x', 'A later');
      list.add('https://a.example/x', 'A third');
      assert.deepEqual(list.list(), [
        { url: 'https://a.example/x', title: 'A later' },
        { url: 'http://b.example/', title: 'B' },
      ]);
    });

    it('stores the address as parsed (percent-encoded), so quotes, spaces and brackets cannot break a link around it', () => {
      const list = new SourceList();
      list.add('https://a.example/p a"t<h>)(?q=<x> y#f "g"');
      const url = list.list()[0]?.url ?? '';
      assert.ok(!/[\s"<>]/.test(url), url);
      assert.ok(url.startsWith('https://a.example/p%20a%22t%3Ch%3E)('), url);
    });

    it('encodes a backslash (kept by the parser in the query and fragment), so it cannot escape the markdown link around it', () => {
      const list = new SourceList();
      list.add('https://a.example/p\\q?x=a\\b#frag\\', 'Page');
      list.add('https://b.example/?q=\\');
      const urls = list.list().map((source) => source.url);
      assert.deepEqual(urls, ['https://a.example/p/q?x=a%5Cb#frag%5C', 'https://b.example/?q=%5C']);
      assert.equal(
        sourcesMarkdown(list.list()),
        '**Sources**\n\n1. [Page](<https://a.example/p/q?x=a%5Cb#frag%5C>)\n2. [b.example](<https://b.example/?q=%5C>)',
      );
      assert.equal(sanitizeSources([{ url: 'https://b.example/?q=\\' }])?.[0]?.url, 'https://b.example/?q=%5C');
    });

    it('flattens, cleans and bounds titles; drops addresses past 2,048 characters', () => {
      const list = new SourceList();
      list.add('https://a.example/', `\u202eexe.txt\u202c\u0000\u0007 line\nbreak\t${'x'.repeat(1_000_000)}`);
      list.add(`https://b.example/${'y'.repeat(3000)}`, 'too long');
      list.add('https://c.example/', ' \u200b\u0000 ');
      const [first, ...rest] = list.list();
      assert.ok(first?.title !== undefined);
      assert.equal(Array.from(first.title).length, MAX_SOURCE_TITLE_CHARS);
      assert.ok(first.title.startsWith('exe.txt line break x'), first.title.slice(0, 40));
      assert.ok(first.title.endsWith('…'));
      // eslint-disable-next-line no-control-regex -- no control character may be left
      assert.ok(!/[\u0000-\u001f\u202a-\u202e]/.test(first.title));
      assert.deepEqual(rest, [{ url: 'https://c.example/' }]);
      assert.equal(sourceLabel({ url: 'https://c.example/' }), 'c.example');
    });

    it('never keeps half a character where a long title was cut', () => {
      const list = new SourceList();
      // 799 spaces then an emoji: the cut at 800 characters falls inside it.
      list.add('https://a.example/', `${' '.repeat(MAX_SOURCE_TITLE_CHARS * 4 - 1)}😀 more`);
      assert.equal(list.list()[0]?.title, undefined);
      list.add('https://b.example/', `Title ${' '.repeat(MAX_SOURCE_TITLE_CHARS * 4 - 7)}😀`);
      assert.equal(list.list()[1]?.title, 'Title');
    });

    it('keeps at most MAX_REPLY_SOURCES of 10,000 and stays fast', () => {
      const list = new SourceList();
      const started = performance.now();
      for (let i = 0; i < 10_000; i++) list.add(`https://flood.example/${i}`, `Result ${i}`);
      assert.equal(list.size, MAX_REPLY_SOURCES);
      assert.equal(list.list().at(-1)?.url, `https://flood.example/${MAX_REPLY_SOURCES - 1}`);
      assert.ok(performance.now() - started < 2000);
    });

    it('sanitizes a saved list again: bad items dropped, nothing left is undefined', () => {
      assert.deepEqual(
        sanitizeSources([
          { url: 'https://a.example/', title: 'A' },
          { url: 'javascript:alert(1)', title: 'x' },
          'https://string.example/',
          null,
          { url: 'https://a.example/' },
          { url: 'https://b.example/', title: 7 },
        ]),
        [{ url: 'https://a.example/', title: 'A' }, { url: 'https://b.example/' }],
      );
      assert.equal(sanitizeSources([{ url: 'file:///x' }]), undefined);
      assert.equal(sanitizeSources('https://a.example/'), undefined);
      assert.equal(sanitizeSources(undefined), undefined);
    });
  });

  describe('chat completions annotations', () => {
    it('reads url_citation annotations from deltas, nested and flattened, and skips other shapes', () => {
      const accumulator = new ChatStreamAccumulator();
      accumulator.add(chatChunk({ content: 'See the sources.' }));
      accumulator.add(
        chatChunk({
          annotations: [
            {
              type: 'url_citation',
              url_citation: { url: 'https://a.example/', title: 'Nested', start_index: 0, end_index: 3 },
            },
            { type: 'url_citation', url: 'https://b.example/', title: 'Flattened' },
            { type: 'file_citation', file_id: 'f1', url: 'https://not-a-url-citation.example/' },
            { type: 'url_citation', url_citation: { url: 'javascript:alert(1)', title: 'Script' } },
            { type: 'url_citation', url_citation: 'https://string.example/' },
            null,
            'https://bare-string.example/',
          ],
        }),
      );
      // Not a list: dropped by the normaliser, nothing thrown.
      accumulator.add(chatChunk({ annotations: { type: 'url_citation', url: 'https://object.example/' } }));
      accumulator.add(
        chatChunk({ annotations: [{ type: 'url_citation', url: 'https://a.example/', title: 'Again' }] }),
      );
      assert.deepEqual(accumulator.snapshot().sources, [
        { url: 'https://a.example/', title: 'Nested' },
        { url: 'https://b.example/', title: 'Flattened' },
      ]);
      assert.equal(accumulator.sourceCount, 2);
      assert.deepEqual(accumulator.sourcesFrom(1), [{ url: 'https://b.example/', title: 'Flattened' }]);
    });

    it('reads message.annotations of a whole JSON answer (and of a chunk that carries a message)', () => {
      const chunks = chatCompletionAsChunks({
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: 'Answer',
              annotations: [{ type: 'url_citation', url_citation: { url: 'https://whole.example/', title: 'Whole' } }],
            },
            finish_reason: 'stop',
          },
        ],
      });
      assert.ok(Array.isArray(chunks));
      const accumulator = new ChatStreamAccumulator();
      for (const chunk of chunks) accumulator.add(chunk);
      accumulator.add(
        normalizeChatChunk({
          choices: [{ index: 0, message: { annotations: [{ type: 'url_citation', url: 'https://m.example/' }] } }],
        }),
      );
      assert.deepEqual(accumulator.snapshot().sources, [
        { url: 'https://whole.example/', title: 'Whole' },
        { url: 'https://m.example/' },
      ]);
    });

    it('10,000 annotations in one delta keep the first 50 http(s) ones', () => {
      const annotations = Array.from({ length: 10_000 }, (_, i) => ({
        type: 'url_citation',
        url_citation: { url: i % 2 ? `https://flood.example/${i}` : `javascript:alert(${i})`, title: `T${i}` },
      }));
      const accumulator = new ChatStreamAccumulator();
      accumulator.add(chatChunk({ annotations }));
      const sources = accumulator.snapshot().sources;
      assert.equal(sources.length, MAX_REPLY_SOURCES);
      assert.ok(sources.every((s) => s.url.startsWith('https://flood.example/')));
    });
  });

  describe('/messages citations and web search results', () => {
    it('reads citations_delta events, citations in a block start, and web_search_tool_result results, in order', () => {
      const accumulator = new MessageStreamAccumulator();
      for (const event of messageEvents(
        { type: 'message_start', message: { id: 'm', content: [], usage: { input_tokens: 1, output_tokens: 1 } } },
        {
          type: 'content_block_start',
          index: 0,
          content_block: { type: 'server_tool_use', id: 's1', name: 'web_search', input: {} },
        },
        { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"query":' } },
        { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '"rust"}' } },
        { type: 'content_block_stop', index: 0 },
        {
          type: 'content_block_start',
          index: 1,
          content_block: {
            type: 'web_search_tool_result',
            tool_use_id: 's1',
            content: [
              {
                type: 'web_search_result',
                url: 'https://r1.example/',
                title: 'R1',
                encrypted_content: 'e',
                page_age: '1 day',
              },
              { type: 'web_search_result', url: 'file:///etc/passwd', title: 'File' },
              { type: 'other', url: 'https://other-type.example/' },
              { type: 'web_search_result', url: 'https://r2.example/' },
            ],
          },
        },
        { type: 'content_block_stop', index: 1 },
        { type: 'content_block_start', index: 2, content_block: { type: 'text', text: '', citations: [] } },
        {
          type: 'content_block_delta',
          index: 2,
          delta: { type: 'citations_delta', citation: citation('https://c1.example/', 'C1') },
        },
        {
          type: 'content_block_delta',
          index: 2,
          delta: { type: 'citations_delta', citation: citation('https://r2.example/', 'R2 titled') },
        },
        {
          type: 'content_block_delta',
          index: 2,
          delta: { type: 'citations_delta', citation: { type: 'char_location', document_index: 0 } },
        },
        {
          type: 'content_block_delta',
          index: 2,
          delta: {
            type: 'citations_delta',
            citation: { type: 'search_result_location', source: 'https://sr.example/', title: 'SR' },
          },
        },
        { type: 'content_block_delta', index: 2, delta: { type: 'citations_delta', citation: 'not an object' } },
        { type: 'content_block_delta', index: 2, delta: { type: 'citations_delta' } },
        { type: 'content_block_delta', index: 2, delta: { type: 'text_delta', text: 'Rust is ' } },
        { type: 'content_block_stop', index: 2 },
        {
          type: 'content_block_start',
          index: 3,
          content_block: { type: 'text', text: '', citations: [citation('https://start.example/', 'In start')] },
        },
        { type: 'content_block_delta', index: 3, delta: { type: 'text_delta', text: 'fast.' } },
        { type: 'content_block_stop', index: 3 },
      ))
        accumulator.add(event);
      assert.deepEqual(accumulator.sourcesFrom(), [
        { url: 'https://r1.example/', title: 'R1' },
        { url: 'https://r2.example/', title: 'R2 titled' },
        { url: 'https://c1.example/', title: 'C1' },
        { url: 'https://sr.example/', title: 'SR' },
        { url: 'https://start.example/', title: 'In start' },
      ]);
      const message = accumulator.snapshot();
      assert.equal(accumulator.text(), 'Rust is fast.');
      // The citations are sources, not text-block fields the replay could carry.
      assert.deepEqual(message.content[2], { type: 'text', text: 'Rust is ' });
      assert.deepEqual((message.content[0] as { input: unknown }).input, { query: 'rust' });
    });

    it('a whole JSON message gives the same sources as its stream', () => {
      const events = messageAsEvents({
        id: 'm',
        content: [
          { type: 'server_tool_use', id: 's1', name: 'web_search', input: { query: 'q' } },
          {
            type: 'web_search_tool_result',
            tool_use_id: 's1',
            content: [{ type: 'web_search_result', url: 'https://r1.example/', title: 'R1' }],
          },
          { type: 'text', text: 'Cited.', citations: [citation('https://c1.example/', 'C1')] },
        ],
        stop_reason: 'end_turn',
        usage: { input_tokens: 1, output_tokens: 2 },
      });
      assert.ok(Array.isArray(events));
      const accumulator = new MessageStreamAccumulator();
      for (const event of events) accumulator.add(event);
      assert.deepEqual(accumulator.sourcesFrom(), [
        { url: 'https://r1.example/', title: 'R1' },
        { url: 'https://c1.example/', title: 'C1' },
      ]);
      assert.equal(accumulator.text(), 'Cited.');
    });

    it('10,000 citations_delta events and a huge result list keep 50 sources, quickly', () => {
      const accumulator = new MessageStreamAccumulator();
      const started = performance.now();
      accumulator.add({
        type: 'content_block_start',
        index: 0,
        content_block: {
          type: 'web_search_tool_result',
          tool_use_id: 's',
          content: Array.from({ length: 100_000 }, (_, i) => ({
            type: 'web_search_result',
            url: `https://r.example/${i}`,
          })),
        },
      });
      for (let i = 0; i < 10_000; i++)
        accumulator.add({
          type: 'content_block_delta',
          index: 1,
          delta: { type: 'citations_delta', citation: citation(`https://c.example/${i}`, 'x'.repeat(10_000)) },
        });
      assert.equal(accumulator.sourceCount, MAX_REPLY_SOURCES);
      assert.ok(performance.now() - started < 5000);
    });
  });

  describe('server tool blocks as steps', () => {
    it('a web search becomes a step with its assembled query and its results listed; an error result fails it', () => {
      const blocks = new ServerToolBlocks();
      assert.equal(blocks.seen({ type: 'server_tool_use', id: 's1', name: 'web_search', input: {} }), undefined);
      assert.equal(
        blocks.seen({ type: 'server_tool_use', id: 's1', name: 'web_search', input: { query: 'q' } }),
        undefined,
      );
      const result = {
        type: 'web_search_tool_result',
        tool_use_id: 's1',
        content: [
          { type: 'web_search_result', url: 'https://r1.example/', title: 'R1\u202e' },
          { type: 'web_search_result', url: 'javascript:alert(1)', title: 'Script' },
        ],
      };
      assert.deepEqual(blocks.seen(result), {
        name: 'web_search',
        arguments: { query: 'q' },
        result: '1. R1 — https://r1.example/\n2. Script — (an address that is not http or https, not shown)',
      });
      assert.equal(blocks.seen(result), undefined, 'each result once');
      blocks.seen({ type: 'server_tool_use', id: 's2', name: 'web_search', input: { query: 'z' } });
      assert.deepEqual(
        blocks.seen({
          type: 'web_search_tool_result',
          tool_use_id: 's2',
          content: { type: 'web_search_tool_result_error', error_code: 'max_uses_exceeded' },
        }),
        {
          name: 'web_search',
          arguments: { query: 'z' },
          result: 'The search failed: max_uses_exceeded',
          is_error: true,
        },
      );
    });

    it('an MCP connector call becomes a step with its server, text result and is_error', () => {
      const blocks = new ServerToolBlocks();
      blocks.seen({ type: 'mcp_tool_use', id: 'm1', name: 'lookup', server_name: 'docs', input: {} });
      assert.deepEqual(
        blocks.seen({
          type: 'mcp_tool_result',
          tool_use_id: 'm1',
          is_error: true,
          content: [{ type: 'text', text: 'refused' }, { type: 'image' }, { type: 'text', text: 'twice' }],
        }),
        { name: 'lookup', arguments: {}, result: 'refused\n\ntwice', is_error: true, server: 'docs' },
      );
      assert.equal(blocks.seen({ type: 'mcp_tool_result', tool_use_id: 'unknown', content: [] }), undefined);
      assert.equal(blocks.seen(null), undefined);
      assert.equal(blocks.seen({ type: 'text', text: 'x' }), undefined);
    });
  });
});
