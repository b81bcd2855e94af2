import * as assert from 'node:assert/strict';
import { apiBaseUrl, normalizeBaseUrl } from '../../../src/core/transport/baseUrl';
import { backoffDelay, isOutOfCredits, isRetryableStatus, parseRetryAfter } from '../../../src/core/transport/retry';
import {
  buildResearchQuery,
  classifyResearchStatus,
  extractResearchReport,
  extractResearchSources,
  isKnownResearchStatus,
  whereAnd,
  whereField,
  whereStatus,
} from '../../../src/core/research/researchHelpers';
import { classifyModel } from '../../../src/core/models/modelCategory';
import { decodeBase64Embedding } from '../../../src/core/parse/resources';
import { InvalidRequestError } from '../../../src/core/errors';
import { parseErrorBody } from '../../../src/core/parse/errorBody';
import { splitSpeechInput } from '../../../src/core/media/speechInput';

describe('core: base URL', () => {
  it('accepts a trailing slash and an address already ending in /api/v1 without doubling it', () => {
    for (const input of [
      'https://gw.example',
      'https://gw.example/',
      'https://gw.example/api/v1',
      'https://gw.example/api/v1/',
      ' https://gw.example//api/v1// ',
    ]) {
      assert.equal(apiBaseUrl(input), 'https://gw.example/api/v1', input);
    }
    assert.equal(normalizeBaseUrl('http://127.0.0.1:8080/proxy/API/V1/'), 'http://127.0.0.1:8080/proxy');
    assert.equal(apiBaseUrl('http://h/prefix/'), 'http://h/prefix/api/v1');
  });

  it('uses an address already ending in a version segment (a proxy serving /v1) as the prefix, never doubling it', () => {
    const cases: [string, string][] = [
      ['https://proxy.example/v1', 'https://proxy.example/v1'],
      ['https://proxy.example/v1/', 'https://proxy.example/v1'],
      ['https://proxy.example/v1?team=a', 'https://proxy.example/v1'],
      ['https://proxy.example/V2', 'https://proxy.example/V2'],
      ['https://proxy.example/openai/v1', 'https://proxy.example/openai/v1'],
      ['http://127.0.0.1:4000/proxy/v1/', 'http://127.0.0.1:4000/proxy/v1'],
      ['https://gw.example/api/v1/?x=1', 'https://gw.example/api/v1'],
      ['https://gw.example/api/v2', 'https://gw.example/api/v2'],
      // A path that merely contains v1 in a name is a gateway root like any other.
      ['https://h.example/v1beta', 'https://h.example/v1beta/api/v1'],
      ['https://h.example/myv1', 'https://h.example/myv1/api/v1'],
      ['https://h.example/v1/gateway', 'https://h.example/v1/gateway/api/v1'],
      ['https://h.example/v', 'https://h.example/v/api/v1'],
    ];
    for (const [input, expected] of cases) assert.equal(apiBaseUrl(input), expected, input);
  });

  it('drops credentials, query and fragment; rejects what is not http(s)', () => {
    assert.equal(apiBaseUrl('https://user:secret@gw.example/x?key=abc#f'), 'https://gw.example/x/api/v1');
    for (const bad of ['', 'gw.example', 'ftp://gw.example', 'javascript:alert(1)']) {
      assert.throws(
        () => normalizeBaseUrl(bad),
        (e: unknown) => e instanceof InvalidRequestError && e.field === 'baseUrl',
        bad,
      );
    }
  });
});

describe('core: error bodies', () => {
  it('takes the message from error (string), error.message, message, else HTTP <status>; keeps type and code', () => {
    assert.deepEqual(parseErrorBody(401, '{"error":"Invalid API key"}'), { message: 'Invalid API key' });
    assert.deepEqual(
      parseErrorBody(429, '{"error":{"message":"Out of credits","type":"insufficient_quota","code":"quota_exceeded"}}'),
      {
        message: 'Out of credits',
        type: 'insufficient_quota',
        code: 'quota_exceeded',
      },
    );
    assert.deepEqual(parseErrorBody(400, '{"message":"bad things","code":400}'), {
      message: 'bad things',
      code: '400',
    });
    assert.deepEqual(parseErrorBody(500, '{"detail":"x"}'), { message: 'HTTP 500' });
    assert.deepEqual(parseErrorBody(502, ''), { message: 'HTTP 502' });
    assert.deepEqual(parseErrorBody(502, '<html><body>Bad gateway</body></html>'), { message: 'HTTP 502' });
    assert.deepEqual(parseErrorBody(503, 'upstream unavailable'), { message: 'HTTP 503' });
    assert.deepEqual(
      parseErrorBody(529, '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}'),
      { message: 'Overloaded', type: 'overloaded_error' },
    );
    assert.deepEqual(
      parseErrorBody(
        400,
        '{"error":{"message":"Unrecognized request argument: stream_options","param":"stream_options"}}',
      ),
      {
        message: 'Unrecognized request argument: stream_options',
        param: 'stream_options',
      },
    );
  });
});

describe('core: retry policy', () => {
  it('reads retry-after-ms first, then retry-after as seconds or an HTTP date', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    assert.equal(parseRetryAfter({ 'retry-after-ms': '1500', 'retry-after': '9' }, now), 1500);
    assert.equal(parseRetryAfter({ 'retry-after': '2' }, now), 2000);
    assert.equal(parseRetryAfter({ 'retry-after': '0.5' }, now), 500);
    assert.equal(parseRetryAfter({ 'retry-after': 'Wed, 01 Jan 2025 00:00:30 GMT' }, now), 30_000);
    assert.equal(parseRetryAfter({ 'retry-after': 'Tue, 31 Dec 2024 00:00:00 GMT' }, now), 0);
    assert.equal(parseRetryAfter({ 'retry-after': 'soon' }, now), undefined);
    assert.equal(parseRetryAfter({ 'retry-after-ms': 'x', 'retry-after': '1' }, now), 1000);
    assert.equal(parseRetryAfter({}, now), undefined);
  });

  it('backs off from 0.5 s doubling up to 8 s, with at most 25 % jitter (upward below the cap, downward at it)', () => {
    assert.deepEqual(
      [0, 1, 2, 3, 4, 5, 9].map((i) => backoffDelay(i, () => 0)),
      [500, 1000, 2000, 4000, 8000, 8000, 8000],
    );
    assert.equal(
      backoffDelay(0, () => 1),
      625,
    );
    assert.equal(
      backoffDelay(4, () => 1),
      6000,
    );
    for (let i = 0; i < 50; i++) {
      const d = backoffDelay(2);
      assert.ok(d >= 2000 && d <= 2500, String(d));
    }
  });

  it('retries 408, 409, 429 and 5xx only; out of credits is told by code or type', () => {
    assert.deepEqual(
      [400, 401, 402, 403, 404, 408, 409, 422, 429, 500, 503, 599].filter(isRetryableStatus),
      [408, 409, 429, 500, 503, 599],
    );
    assert.equal(isOutOfCredits('insufficient_quota', undefined), true);
    assert.equal(isOutOfCredits(undefined, 'credits_exhausted'), true);
    assert.equal(isOutOfCredits('INSUFFICIENT_FUNDS', undefined), true);
    assert.equal(isOutOfCredits('rate_limit_exceeded', 'requests'), false);
    assert.equal(isOutOfCredits(undefined, undefined), false);
    // In words only: a usage or plan limit is out of credits; a per-minute or concurrency limit is a rate.
    assert.equal(isOutOfCredits(undefined, undefined, 'Usage limit reached for this billing period', false), true);
    assert.equal(isOutOfCredits(undefined, undefined, 'Tokens per minute limit exceeded', false), false);
    assert.equal(isOutOfCredits(undefined, undefined, 'Concurrency limit reached', false), false);
    assert.equal(
      isOutOfCredits(undefined, undefined, 'Usage limit reached', true),
      false,
      'Retry-After makes it transient',
    );
  });
});

describe('core: research helpers', () => {
  it('classifies statuses; unknown ones count as in progress', () => {
    const cases: [string, string][] = [
      ['queued', 'in_progress'],
      ['running', 'in_progress'],
      ['succeeded', 'succeeded'],
      ['completed', 'succeeded'],
      ['failed', 'failed'],
      ['error', 'failed'],
      ['cancelled', 'failed'],
      ['canceled', 'failed'],
      ['timeout', 'failed'],
      ['Succeeded', 'succeeded'],
      ['paused', 'in_progress'],
    ];
    for (const [status, phase] of cases) assert.equal(classifyResearchStatus(status), phase, status);
    assert.equal(isKnownResearchStatus('paused'), false);
    assert.equal(isKnownResearchStatus('queued'), true);
  });

  it('builds the list query: limit, sort, where (JSON, URL-encoded), page; validates limit 1..100 and page', () => {
    const where = whereAnd(whereStatus('queued', 'running'), whereField('metadata.research.status', 'exists', true));
    const query = buildResearchQuery({ limit: 5, sort: '-createdAt', where, page: 2 });
    const params = new URLSearchParams(query);
    assert.equal(params.get('limit'), '5');
    assert.equal(params.get('sort'), '-createdAt');
    assert.equal(params.get('page'), '2');
    assert.deepEqual(JSON.parse(params.get('where') ?? ''), {
      and: [
        { or: [{ status: { equals: 'queued' } }, { status: { equals: 'running' } }] },
        { 'metadata.research.status': { exists: true } },
      ],
    });
    assert.ok(!query.includes('{') && !query.includes('"'), 'where is URL-encoded');
    assert.equal(buildResearchQuery(), '');
    assert.equal(
      new URLSearchParams(buildResearchQuery({ where: '{"status":{"equals":"running"}}' })).get('where'),
      '{"status":{"equals":"running"}}',
    );
    assert.throws(
      () => buildResearchQuery({ where: [] as unknown as string }),
      (e: unknown) => e instanceof InvalidRequestError && e.field === 'where',
    );
    for (const limit of [0, 101, 1.5, -1]) {
      assert.throws(
        () => buildResearchQuery({ limit }),
        (e: unknown) => e instanceof InvalidRequestError && e.field === 'limit',
        String(limit),
      );
    }
    assert.throws(
      () => buildResearchQuery({ page: 0 }),
      (e: unknown) => e instanceof InvalidRequestError && e.field === 'page',
    );
    assert.doesNotThrow(() => buildResearchQuery({ limit: 1 }));
    assert.doesNotThrow(() => buildResearchQuery({ limit: 100 }));
  });

  it('extracts the report from every field name, as a string or inside an object', () => {
    for (const field of ['report', 'result', 'content', 'output', 'markdown', 'summary']) {
      assert.equal(extractResearchReport({ id: '1', [field]: '# R' }), '# R', field);
      assert.equal(extractResearchReport({ id: '1', [field]: { markdown: '# In' } }), '# In', `${field} object`);
    }
    assert.equal(extractResearchReport({ report: '', result: '# second' }), '# second');
    assert.equal(extractResearchReport({ report: { content: '# deep' } }), '# deep');
    assert.equal(extractResearchReport({ id: '1', status: 'running' }), undefined);
    assert.equal(extractResearchReport(null), undefined);
  });

  it('extracts sources from sources or citations, strings or objects, also inside the report object', () => {
    assert.deepEqual(
      extractResearchSources({ sources: ['https://a.example', { url: 'https://b.example', title: 'B' }, 3, ''] }),
      [{ url: 'https://a.example' }, { url: 'https://b.example', title: 'B' }],
    );
    assert.deepEqual(extractResearchSources({ citations: [{ title: 'Only title' }] }), [{ title: 'Only title' }]);
    assert.deepEqual(extractResearchSources({ result: { markdown: '#', citations: ['https://c.example'] } }), [
      { url: 'https://c.example' },
    ]);
    assert.deepEqual(extractResearchSources({ id: 'x' }), []);
  });
});

describe('core: model categories', () => {
  it('uses explicit fields first', () => {
    assert.equal(classifyModel({ id: 'x/a', type: 'embedding' }), 'embedding');
    assert.equal(classifyModel({ id: 'x/whisper-ish', category: 'chat' }), 'chat');
    assert.equal(classifyModel({ id: 'x/b', capabilities: ['rerank'] }), 'rerank');
    assert.equal(classifyModel({ id: 'x/c', capabilities: { image_generation: true, chat: false } }), 'image');
    assert.equal(classifyModel({ id: 'x/d', modalities: { input: ['audio'], output: ['text'] } }), 'transcription');
    assert.equal(classifyModel({ id: 'x/e', modalities: { input: ['text'], output: ['audio'] } }), 'speech');
    assert.equal(classifyModel({ id: 'x/f', architecture: { modality: 'text+image->text' } }), 'chat');
    assert.equal(
      classifyModel({ id: 'x/g', architecture: { input_modalities: ['text'], output_modalities: ['image'] } }),
      'image',
    );
  });

  it('falls back to the id', () => {
    const cases: [string, string][] = [
      ['openai/text-embedding-3-small', 'embedding'],
      ['cohere/rerank-english-v3.0', 'rerank'],
      ['openai/whisper-1', 'transcription'],
      ['openai/gpt-4o-transcribe', 'transcription'],
      ['openai/tts-1-hd', 'speech'],
      ['openai/gpt-4o-mini-tts', 'speech'],
      ['openai/dall-e-3', 'image'],
      ['bfl/flux-pro', 'image'],
      ['stability/stable-diffusion-xl', 'image'],
      ['anthropic/claude-sonnet-4', 'chat'],
      ['openai/gpt-4o', 'chat'],
    ];
    for (const [id, category] of cases) assert.equal(classifyModel({ id }), category, id);
    assert.equal(classifyModel('voyage/voyage-embed-3'), 'embedding');
  });
});

describe('core: small pure helpers', () => {
  it('decodes base64 little-endian float32 embeddings', () => {
    const values = [0.5, -1.25, 3.0, 1e-3];
    const buffer = Buffer.alloc(values.length * 4);
    values.forEach((v, i) => buffer.writeFloatLE(v, i * 4));
    const decoded = decodeBase64Embedding(buffer.toString('base64'));
    assert.equal(decoded.length, 4);
    decoded.forEach((v, i) => assert.ok(Math.abs(v - (values[i] as number)) < 1e-6));
  });

  it('splits speech input at sentence ends into pieces of at most the limit', () => {
    const sentence = 'Ein Satz mit Wörtern. ';
    const text = sentence.repeat(500);
    const pieces = splitSpeechInput(text, 100);
    assert.ok(pieces.length > 1);
    for (const piece of pieces) {
      assert.ok(Array.from(piece).length <= 100, piece);
      assert.ok(piece.endsWith('.'), piece);
    }
    assert.equal(pieces.join(' '), text.trim());
    assert.deepEqual(splitSpeechInput('short'), ['short']);
    assert.deepEqual(
      splitSpeechInput('x'.repeat(250), 100).map((p) => p.length),
      [100, 100, 50],
    );
  });
});
