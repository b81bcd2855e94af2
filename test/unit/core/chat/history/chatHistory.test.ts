import * as assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AssistantTurn, Attachment, Conversation, UserTurn } from '../../../../../src/shared/chatModel';
import { ConversationStore } from '../../../../../src/core/chat/history/conversationStore';
import { titleFromText } from '../../../../../src/core/chat/history/conversationTitle';
import { exportMarkdown } from '../../../../../src/core/chat/history/exportMarkdown';
import { userTurnText } from '../../../../../src/core/chat/conversationWire';

const T0 = Date.UTC(2025, 0, 15, 9, 30);

function user(id: string, text: string, attachments: Attachment[] = []): UserTurn {
  return { role: 'user', id, text, attachments, createdAt: T0 };
}

function assistant(id: string, content: string, extra: Partial<AssistantTurn> = {}): AssistantTurn {
  return {
    role: 'assistant',
    id,
    model: 'sim-chat',
    content,
    reasoning: '',
    toolSteps: [],
    status: 'done',
    wire: [],
    createdAt: T0 + 1000,
    ...extra,
  };
}

function conversation(id: string, extra: Partial<Conversation> = {}): Conversation {
  return {
    id,
    title: `Conversation ${id}`,
    model: 'sim-chat',
    parameters: {},
    turns: [user(`${id}-u1`, 'Hello there'), assistant(`${id}-a1`, 'General Kenobi')],
    createdAt: T0,
    updatedAt: T0,
    ...extra,
  };
}

/** Every optional field filled in, to prove nothing is lost on the way through the disk. */
function richConversation(id: string): Conversation {
  return conversation(id, {
    title: 'Refactor the parser',
    parameters: {
      temperature: 0.2,
      maxTokens: 2048,
      reasoningEffort: 'high',
      thinkingBudget: 4096,
      systemPrompt: 'Be brief.',
    },
    turns: [
      user('u1', 'Why is `parse` slow?', [
        {
          id: 'at1',
          kind: 'selection',
          path: 'src/parser.ts',
          startLine: 10,
          endLine: 14,
          languageId: 'typescript',
          text: 'function parse(s: string) {\n  return s.split("");\n}',
        },
        {
          id: 'at2',
          kind: 'file',
          path: 'README.md',
          languageId: 'markdown',
          text: 'Use ```ts fences``` here',
          truncated: true,
        },
      ]),
      assistant('a1', 'It splits every character.\n\n```ts\nconst parts = s.split(",");\n```', {
        reasoning: 'The user asks about performance.\nLook at split.',
        toolSteps: [
          {
            kind: 'server',
            name: 'web_search',
            server: 'https://tools.example',
            arguments: '{"q":"split perf"}',
            result: 'Three results about String.prototype.split',
          },
          {
            kind: 'function',
            id: 'call1',
            name: 'readFile',
            arguments: '{"path":"src/parser.ts"}',
            status: 'done',
            result: 'function parse(s) {}',
          },
          { kind: 'function', id: 'call2', name: 'listFiles', arguments: '{}', status: 'denied' },
          { kind: 'server', name: 'lookup', server: 'docs', arguments: '{}', result: 'refused', failed: true },
        ],
        // A title that tries to close the link, open another and add HTML, and one page without a title.
        sources: [
          { url: 'https://split.example/perf?q=a(b)', title: 'Split ](javascript:alert(1)) [x] <img src=x> *perf*' },
          { url: 'https://docs.example/split' },
        ],
        finishReason: 'stop',
        usage: { promptTokens: 120, completionTokens: 45 },
        cost: { credits: 0.30000000000000004, estimate: true },
        wire: [
          {
            role: 'assistant',
            parts: [
              { kind: 'thinking', thinking: 'Look at split.', signature: 'sig' },
              { kind: 'toolCall', id: 'call1', name: 'readFile', input: { path: 'src/parser.ts' } },
            ],
          },
          { role: 'user', parts: [{ kind: 'toolResult', callId: 'call1', content: 'function parse(s) {}' }] },
          {
            role: 'assistant',
            parts: [
              { kind: 'redactedThinking', data: 'xyz' },
              { kind: 'text', text: 'It splits every character.' },
            ],
          },
        ],
      }),
      user('u2', 'And now?'),
      assistant('a2', 'Partial answer:\n```python\nprint(', {
        status: 'error',
        error: {
          kind: 'unreachable',
          message: 'Could not reach http://127.0.0.1:9 (connection refused)',
          actions: ['retry', 'openSettings'],
          setting: 'http.proxy',
        },
      }),
      user('u3', 'Try again'),
      assistant('a3', 'Half a reply', { status: 'stopped' }),
    ],
    createdAt: T0,
    updatedAt: T0 + 60_000,
  });
}

describe('chat history: ConversationStore', function () {
  this.timeout(20_000);
  let root: string;
  let directory: string;
  let problems: string[];
  let store: ConversationStore;

  const fresh = (): ConversationStore => new ConversationStore(directory, (message) => problems.push(message));
  const files = async (): Promise<string[]> => (await readdir(directory)).sort();

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'ui-history-'));
    directory = join(root, 'conversations');
    problems = [];
    store = fresh();
  });

  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('round-trips a conversation through save and load, and a new instance reads it too', async () => {
    const original = richConversation('rich');
    await store.save(original);
    assert.deepEqual(await store.load('rich'), original);
    assert.deepEqual(await fresh().load('rich'), original);
    assert.equal(await store.load('missing'), undefined);
    assert.deepEqual(await files(), ['index.v1.json', 'rich.json']);
    assert.deepEqual(problems, []);
  });

  it("keeps an error's setting only when it is a setting id (Open Settings filters on it)", async () => {
    await store.save(richConversation('named'));
    const text = await readFile(join(directory, 'named.json'), 'utf8');
    for (const [setting, kept] of [
      ['unifiedInference.caCertificateFile', true],
      ['http.proxy; rm -rf ~', false],
      ['@ext:someone.else', false],
      ['command:workbench.action.terminal.new', false],
      [{ id: 'http.proxy' }, false],
    ] as const) {
      await writeFile(
        join(directory, 'named.json'),
        text.replace('"setting":"http.proxy"', `"setting":${JSON.stringify(setting)}`),
      );
      const turn = (await fresh().load('named'))?.turns.find((t) => t.id === 'a2');
      const error = turn?.role === 'assistant' ? turn.error : undefined;
      assert.equal(error?.kind, 'unreachable', 'the error itself stays');
      assert.equal(error?.setting, kept ? setting : undefined, JSON.stringify(setting));
    }
  });

  it('saves what the conversation was at the call, even if the caller changes it right after', async () => {
    const live = conversation('live');
    const saving = store.save(live);
    live.title = 'changed after save()';
    live.turns.push(user('late', 'late'));
    await saving;
    const loaded = await store.load('live');
    assert.equal(loaded?.title, 'Conversation live');
    assert.equal(loaded?.turns.length, 2);
  });

  it('lists newest first and searches title and every turn, case-insensitively', async () => {
    await store.save(
      conversation('old', { title: 'Shopping list', updatedAt: T0 + 1000, turns: [user('u', 'Buy BANANAS please')] }),
    );
    await store.save(conversation('new', { title: 'Rust lifetimes', updatedAt: T0 + 3000 }));
    await store.save(
      conversation('mid', {
        title: 'Deploy notes',
        updatedAt: T0 + 2000,
        turns: [user('u', 'hi'), assistant('a', 'Run kubectl Apply first')],
      }),
    );

    const ids = async (query?: string, from = store): Promise<string[]> =>
      (await from.list(query)).map((row) => row.id);
    assert.deepEqual(await ids(), ['new', 'mid', 'old']);
    assert.deepEqual(await ids(''), ['new', 'mid', 'old']);
    assert.deepEqual(await ids('   '), ['new', 'mid', 'old']);
    assert.deepEqual(await ids('rust LIFE'), ['new'], 'title');
    assert.deepEqual(await ids('bananas'), ['old'], 'user text');
    assert.deepEqual(await ids('KUBECTL apply'), ['mid'], 'assistant content');
    assert.deepEqual(await ids('hi'), ['mid'], 'substring of a user message');
    assert.deepEqual(await ids('nothing like this'), []);
    // A new instance answers from the index and the files alike.
    assert.deepEqual(await ids('kubectl', fresh()), ['mid']);
    assert.deepEqual(await store.list('shopping'), [
      { id: 'old', title: 'Shopping list', model: 'sim-chat', updatedAt: T0 + 1000, turnCount: 1 },
    ]);
  });

  it('finds a conversation by content saved after the first search (the search cache follows saves)', async () => {
    await store.save(conversation('a'));
    assert.deepEqual(await store.list('zebra'), []);
    const changed = conversation('a', { turns: [user('u', 'a ZEBRA crossing')], updatedAt: T0 + 5 });
    await store.save(changed);
    assert.deepEqual(
      (await store.list('zebra')).map((row) => row.id),
      ['a'],
    );
  });

  it('renames without reordering, and refuses an empty title or an unknown id', async () => {
    await store.save(conversation('c1', { updatedAt: T0 + 10 }));
    await store.save(conversation('c2', { updatedAt: T0 + 20 }));
    await store.rename('c1', '  My   renamed\nchat ');
    assert.equal((await store.load('c1'))?.title, 'My renamed chat');
    const rows = await fresh().list();
    assert.deepEqual(
      rows.map((row) => [row.id, row.title]),
      [
        ['c2', 'Conversation c2'],
        ['c1', 'My renamed chat'],
      ],
    );
    await assert.rejects(store.rename('c1', '   '), /empty/);
    await assert.rejects(store.rename('nope', 'x'), /no conversation/);
  });

  it('delete returns the conversation, and saving it back restores it (undo)', async () => {
    const original = richConversation('gone');
    await store.save(original);
    await store.save(conversation('stays'));
    const removed = await store.delete('gone');
    assert.deepEqual(removed, original);
    assert.equal(await store.load('gone'), undefined);
    assert.deepEqual(
      (await store.list()).map((row) => row.id),
      ['stays'],
    );
    assert.deepEqual(
      (await fresh().list()).map((row) => row.id),
      ['stays'],
    );
    assert.equal(await store.delete('gone'), undefined, 'deleting twice is harmless');

    await store.save(removed);
    assert.deepEqual(await store.load('gone'), original);
    assert.deepEqual((await fresh().list()).map((row) => row.id).sort(), ['gone', 'stays']);
  });

  it('serialises 20 overlapping saves of one id: the last call wins and the file is valid', async () => {
    const base = conversation('busy');
    const saves = Array.from({ length: 20 }, (_, i) =>
      store.save({
        ...base,
        title: `version ${i}`,
        updatedAt: T0 + i,
        turns: [user('u', `text ${i} `.repeat(50 + ((i * 37) % 200)))],
      }),
    );
    // Reads issued meanwhile must never see a half-written file.
    const reads = Array.from({ length: 5 }, () => store.load('busy'));
    await Promise.all(saves);
    for (const read of await Promise.all(reads)) assert.match(read?.title ?? 'none', /^version \d+$|^none$/);

    assert.equal((await store.load('busy'))?.title, 'version 19');
    const onDisk = JSON.parse(await readFile(join(directory, 'busy.json'), 'utf8')) as Conversation;
    assert.equal(onDisk.title, 'version 19');
    assert.deepEqual(await files(), ['busy.json', 'index.v1.json'], 'no temp files left');
    assert.deepEqual(
      (await fresh().list()).map((row) => row.title),
      ['version 19'],
    );
  });

  it('recovers from a crash: stray temp files go, the old file stays, and a missing index is rebuilt', async () => {
    await store.save(conversation('keep', { title: 'before the crash' }));
    await store.save(conversation('other'));
    // A writer that died (its pid is not running) between writing the temp file and renaming it.
    await writeFile(join(directory, 'keep.json.99999999-deadbeef.tmp'), '{"id":"keep","title":"half wri');
    // An index temp file of this very process, but from long ago (pid reuse).
    const oldTemp = join(directory, `index.v1.json.${process.pid}-abcdef.tmp`);
    await writeFile(oldTemp, '{');
    await utimes(oldTemp, new Date(T0), new Date(T0));
    // A temp file of a live writer (this process, just now) must be left alone.
    const liveTemp = join(directory, `other.json.${process.pid}-012345.tmp`);
    await writeFile(liveTemp, '{');
    await rm(join(directory, 'index.v1.json'));

    const after = fresh();
    const rows = await after.list();
    assert.deepEqual(rows.map((row) => row.id).sort(), ['keep', 'other']);
    assert.equal((await after.load('keep'))?.title, 'before the crash');
    assert.deepEqual(await files(), [
      'index.v1.json',
      'keep.json',
      'other.json',
      `other.json.${process.pid}-012345.tmp`,
    ]);
    const index = JSON.parse(await readFile(join(directory, 'index.v1.json'), 'utf8')) as { conversations: unknown[] };
    assert.equal(index.conversations.length, 2, 'the rebuilt index is written back');
  });

  it('rebuilds a corrupt index, reporting it', async () => {
    await store.save(conversation('a', { updatedAt: T0 + 1 }));
    await store.save(conversation('b', { updatedAt: T0 + 2 }));
    await writeFile(join(directory, 'index.v1.json'), '{"version":1,"conversations":[{"id":"a"');
    const after = fresh();
    assert.deepEqual(
      (await after.list()).map((row) => row.id),
      ['b', 'a'],
    );
    assert.equal(problems.length, 1);
    assert.match(problems[0] ?? '', /index is corrupt/);
    const index = JSON.parse(await readFile(join(directory, 'index.v1.json'), 'utf8')) as { conversations: unknown[] };
    assert.equal(index.conversations.length, 2);
  });

  it('lets the files win when the index disagrees (changed by another window, missing, or unknown to it)', async () => {
    await store.save(conversation('changed', { title: 'old title', updatedAt: T0 + 1 }));
    await store.save(conversation('vanished', { updatedAt: T0 + 2 }));
    // Another window (or a sync tool) rewrites one file, removes one, adds one: this instance's index is stale.
    const external = conversation('changed', {
      title: 'newer title from elsewhere',
      updatedAt: T0 + 9,
      turns: [user('u', 'x'), user('v', 'y'), user('w', 'z')],
    });
    await writeFile(join(directory, 'changed.json'), JSON.stringify(external));
    await rm(join(directory, 'vanished.json'));
    await writeFile(join(directory, 'added.json'), JSON.stringify(conversation('added', { updatedAt: T0 + 5 })));

    for (const instance of [store, fresh()]) {
      const rows = await instance.list();
      assert.deepEqual(
        rows.map((row) => [row.id, row.title, row.turnCount]),
        [
          ['changed', 'newer title from elsewhere', 3],
          ['added', 'Conversation added', 2],
        ],
      );
      assert.deepEqual(
        (await instance.list('newer title')).map((row) => row.id),
        ['changed'],
      );
    }
    assert.deepEqual(problems, []);
  });

  it('skips a corrupt conversation file, reports it and moves it aside (never deletes it)', async () => {
    await store.save(conversation('good'));
    await writeFile(join(directory, 'badjson.json'), '{"id":"badjson", "turns": [');
    const wrongShape = { ...conversation('shape'), turns: [{ role: 'robot', id: 'x', text: 'hi', createdAt: 1 }] };
    await writeFile(join(directory, 'shape.json'), JSON.stringify(wrongShape));
    await writeFile(
      join(directory, 'notext.json'),
      JSON.stringify({ ...conversation('notext'), turns: [{ role: 'user', id: 'u', createdAt: 1, attachments: [] }] }),
    );
    await writeFile(join(directory, 'otherid.json'), JSON.stringify(conversation('someone-else')));

    const after = fresh();
    assert.deepEqual(
      (await after.list()).map((row) => row.id),
      ['good'],
    );
    assert.deepEqual(
      (await after.list('hello')).map((row) => row.id),
      ['good'],
    );
    assert.equal(problems.length, 4, problems.join('\n'));
    for (const id of ['badjson', 'shape', 'notext', 'otherid']) {
      assert.ok(
        problems.some((problem) => problem.includes(`${id}.json is corrupt`)),
        id,
      );
    }
    assert.ok(problems.some((problem) => /turns\[0\]\.role/.test(problem)));
    assert.ok(problems.some((problem) => /turns\[0\]\.text is not a string/.test(problem)));

    const names = await files();
    for (const id of ['badjson', 'shape', 'notext', 'otherid']) {
      assert.ok(!names.includes(`${id}.json`), `${id}.json moved`);
      assert.ok(
        names.some((name) => new RegExp(`^${id}\\.corrupt-\\d+\\.json$`).test(name)),
        `${id} kept aside`,
      );
    }
    const aside = names.find((name) => name.startsWith('badjson.corrupt-'));
    assert.equal(
      await readFile(join(directory, aside ?? ''), 'utf8'),
      '{"id":"badjson", "turns": [',
      'content untouched',
    );
    assert.equal(await after.load('badjson'), undefined);
  });

  it('load() of a corrupt file reports it, moves it aside and drops it from the list', async () => {
    await store.save(conversation('broken'));
    assert.equal((await store.list()).length, 1);
    await writeFile(join(directory, 'broken.json'), 'not json at all, and longer than before');
    assert.equal(await store.load('broken'), undefined);
    assert.equal(problems.length, 1);
    assert.deepEqual(await store.list(), []);
    assert.ok((await files()).some((name) => name.startsWith('broken.corrupt-')));
  });

  it('loads a reply saved mid-stream as stopped, its pending tool steps as ended, and drops malformed optional details', async () => {
    await store.save(conversation('x'));
    const raw = JSON.parse(await readFile(join(directory, 'x.json'), 'utf8')) as Record<string, unknown>;
    const step = (id: string, status: string): Record<string, string> => ({
      kind: 'function',
      id,
      name: 'read_file',
      arguments: '{}',
      status,
    });
    raw['turns'] = [
      {
        role: 'assistant',
        id: 'a',
        model: 'm',
        content: 'partial',
        status: 'streaming',
        usage: { promptTokens: 'many' },
        toolSteps: [step('t1', 'awaitingApproval'), step('t2', 'running')],
        createdAt: 1,
      },
    ];
    raw['parameters'] = { temperature: 'hot', maxTokens: 100 };
    await writeFile(join(directory, 'x.json'), JSON.stringify(raw));
    const loaded = await fresh().load('x');
    // Nothing waits for a decision or runs a tool after a reload: no live Allow/Deny buttons.
    const toolSteps = [step('t1', 'denied'), step('t2', 'failed')];
    assert.deepEqual(loaded?.turns, [
      {
        role: 'assistant',
        id: 'a',
        model: 'm',
        content: 'partial',
        reasoning: '',
        toolSteps,
        status: 'stopped',
        wire: [],
        createdAt: 1,
      },
    ]);
    assert.deepEqual(loaded?.parameters, { maxTokens: 100 });
  });

  it('keeps the sensitive files a tool step named, dropping anything but strings', async () => {
    await store.save(conversation('s'));
    const raw = JSON.parse(await readFile(join(directory, 's.json'), 'utf8')) as Record<string, unknown>;
    const step = { kind: 'function', id: 't1', name: 'read_file', arguments: '{}', status: 'done', result: 'x' };
    raw['turns'] = [
      {
        role: 'assistant',
        id: 'a',
        model: 'm',
        content: '',
        status: 'done',
        toolSteps: [
          { ...step, sensitive: ['.env', 7] },
          { ...step, id: 't2', sensitive: [] },
        ],
        createdAt: 1,
      },
    ];
    await writeFile(join(directory, 's.json'), JSON.stringify(raw));
    const turn = (await fresh().load('s'))?.turns[0];
    assert.deepEqual(turn?.role === 'assistant' ? turn.toolSteps : [], [
      { ...step, sensitive: ['.env'] },
      { ...step, id: 't2' },
    ]);
  });

  it("keeps a step's cost notice and research job link, and a research report attachment; drops malformed ones", async () => {
    await store.save(conversation('r'));
    const raw = JSON.parse(await readFile(join(directory, 'r.json'), 'utf8')) as Record<string, unknown>;
    const step = { kind: 'function', id: 't1', name: 'deep_research', arguments: '{}', status: 'done', result: 'x' };
    const report = { id: 'att1', kind: 'research', path: 'Vector databases', text: '# Report' };
    raw['turns'] = [
      { role: 'user', id: 'u', text: '@research', attachments: [report], createdAt: 1 },
      {
        role: 'assistant',
        id: 'a',
        model: 'm',
        content: '',
        status: 'done',
        toolSteps: [
          { ...step, notice: 'Start a deep research job? It costs credits.', researchJobId: 'job-1' },
          { ...step, id: 't2', notice: 7, researchJobId: { id: 'x' } },
        ],
        createdAt: 2,
      },
    ];
    await writeFile(join(directory, 'r.json'), JSON.stringify(raw));
    const [user, reply] = (await fresh().load('r'))?.turns ?? [];
    assert.deepEqual(user?.role === 'user' ? user.attachments : [], [report]);
    assert.deepEqual(reply?.role === 'assistant' ? reply.toolSteps : [], [
      { ...step, notice: 'Start a deep research job? It costs credits.', researchJobId: 'job-1' },
      { ...step, id: 't2' },
    ]);
    // The model reads the report as what it is, and an export labels it so.
    assert.match(
      userTurnText({ text: 'sum it up', attachments: [report as Attachment] }),
      /^Research report Vector databases:\n/,
    );
    assert.match(
      exportMarkdown((await fresh().load('r')) as Conversation),
      /\*\*`Vector databases`\*\* \(research report\)/,
    );
  });

  it('keeps the always-asked files a tool step named, dropping malformed entries', async () => {
    await store.save(conversation('g'));
    const raw = JSON.parse(await readFile(join(directory, 'g.json'), 'utf8')) as Record<string, unknown>;
    const step = { kind: 'function', id: 't1', name: 'create_file', arguments: '{}', status: 'done', result: 'x' };
    const guarded = [
      { path: 'Makefile', reason: 'runsCode' },
      { path: 'AGENTS.md', reason: 'instructsModel' },
      { path: '.gitignore', reason: 'changesReads' },
      { path: 'b.ts', reason: 'otherNames' },
      { path: 'x', reason: 'other' },
      { path: 3, reason: 'runsCode' },
      'Makefile',
      null,
    ];
    raw['turns'] = [
      {
        role: 'assistant',
        id: 'a',
        model: 'm',
        content: '',
        status: 'done',
        toolSteps: [
          { ...step, guarded },
          { ...step, id: 't2', guarded: 'Makefile' },
        ],
        createdAt: 1,
      },
    ];
    await writeFile(join(directory, 'g.json'), JSON.stringify(raw));
    const turn = (await fresh().load('g'))?.turns[0];
    assert.deepEqual(turn?.role === 'assistant' ? turn.toolSteps : [], [
      { ...step, guarded: guarded.slice(0, 4) },
      { ...step, id: 't2' },
    ]);
  });

  it('refuses ids that could leave the folder, before touching the file system', async () => {
    const bad = [
      '../x',
      '..',
      '.',
      'a/b',
      'a\\b',
      '',
      'x'.repeat(65),
      'a.json',
      '/etc/passwd',
      'with space',
      'ünïcode',
      '../../index.v1',
    ];
    for (const id of bad) {
      await assert.rejects(store.load(id), /Invalid conversation id/, `load ${JSON.stringify(id)}`);
      await assert.rejects(store.save(conversation(id)), /Invalid conversation id/, `save ${JSON.stringify(id)}`);
      await assert.rejects(store.rename(id, 'title'), /Invalid conversation id/);
      await assert.rejects(store.delete(id), /Invalid conversation id/);
    }
    assert.deepEqual(await readdir(root), [], 'nothing was created, not even the folder');
    assert.throws(() => new ConversationStore('relative/folder'), /absolute/);
    await store.save(conversation('A-z_0-9'));
    assert.equal((await store.load('A-z_0-9'))?.id, 'A-z_0-9');
  });

  it('saves, loads, lists and searches a 500-turn conversation', async () => {
    const turns = Array.from({ length: 500 }, (_, i) =>
      i % 2 === 0
        ? user(`u${i}`, `Question ${i}: ${'lorem ipsum '.repeat(20)}`)
        : assistant(`a${i}`, `Answer ${i}\n\n${'dolor sit amet '.repeat(80)}\n\n\`\`\`ts\nconst x${i} = ${i};\n\`\`\``),
    );
    const big = conversation('big', { turns, updatedAt: T0 + 1 });
    const started = Date.now();
    await store.save(big);
    const loaded = await fresh().load('big');
    assert.ok(Date.now() - started < 5000, 'fast enough to not notice');
    assert.deepEqual(loaded, big);
    assert.deepEqual(await store.list('const x437 = 437'), [
      {
        id: 'big',
        title: 'Conversation big',
        model: 'sim-chat',
        updatedAt: T0 + 1,
        turnCount: 500,
        // Its replies told no cost: the row says so rather than "$0".
        cost: { credits: 0, approximate: false, unknownReplies: 250 },
      },
    ]);
    assert.ok((await stat(join(directory, 'big.json'))).size > 300_000);
  });
});

describe('chat history: titleFromText', () => {
  it('takes the first non-empty line with whitespace collapsed', () => {
    assert.equal(titleFromText('\n   \n  Explain   this\tcode \nsecond line'), 'Explain this code');
    assert.equal(titleFromText('\r\n\r\nWindows  line\r\nnext'), 'Windows line');
  });

  it('says New conversation when there is no text', () => {
    assert.equal(titleFromText(''), 'New conversation');
    assert.equal(titleFromText(' \n\t\n '), 'New conversation');
  });

  it('cuts long text at a word with an ellipsis, at most 60 characters', () => {
    const title = titleFromText(
      'Please explain how the incremental parser handles unterminated string literals in templates',
    );
    assert.equal(title, 'Please explain how the incremental parser handles…');
    assert.ok(Array.from(title).length <= 60);
    const exactly60 = 'a'.repeat(60);
    assert.equal(titleFromText(exactly60), exactly60);
  });

  it('cuts one very long word hard, and never splits an emoji', () => {
    assert.equal(titleFromText('x'.repeat(100)), `${'x'.repeat(59)}…`);
    const emoji = titleFromText('😀'.repeat(70));
    assert.equal(Array.from(emoji).length, 60);
    assert.ok(emoji.endsWith('😀…'));
  });
});

describe('chat history: exportMarkdown', () => {
  const markdown = exportMarkdown(richConversation('rich'));

  it('starts with the title, model, dates and parameters', () => {
    assert.ok(
      markdown.startsWith(
        '# Refactor the parser\n\n- **Model:** `sim-chat`\n- **Created:** 2025-01-15 09:30 UTC\n- **Updated:** 2025-01-15 09:31 UTC\n',
      ),
      markdown.slice(0, 200),
    );
    assert.match(
      markdown,
      /- \*\*Parameters:\*\* temperature 0\.2, max tokens 2048, reasoning effort high, thinking budget 4096 tokens/,
    );
    assert.match(markdown, /\*\*System prompt\*\*\n\n> Be brief\./);
  });

  it('shows user messages with attachments as labelled fenced code blocks', () => {
    assert.match(markdown, /## You · 2025-01-15 09:30 UTC\n\nWhy is `parse` slow\?/);
    assert.ok(
      markdown.includes(
        '**`src/parser.ts`** lines 10–14\n\n```typescript\nfunction parse(s: string) {\n  return s.split("");\n}\n```',
      ),
    );
    // The attachment holds ``` itself, so its fence is longer and cannot be closed early.
    assert.ok(markdown.includes('**`README.md`** (file) (shortened)\n\n````markdown\nUse ```ts fences``` here\n````'));
  });

  it('shows the reply, its reasoning, tool steps and usage', () => {
    assert.ok(markdown.includes('## Assistant (`sim-chat`) · 2025-01-15 09:30 UTC'));
    assert.ok(markdown.includes('> **Reasoning**\n>\n> The user asks about performance.\n> Look at split.'));
    assert.ok(
      markdown.includes(
        '**Tools**\n\n- `web_search` (on `https://tools.example`) with `{"q":"split perf"}`: `Three results about String.prototype.split`\n- `readFile` (done) with `{"path":"src/parser.ts"}`: `function parse(s) {}`\n- `listFiles` (denied) with `{}`\n- `lookup` (on `docs`, failed) with `{}`: `refused`',
      ),
    );
    assert.ok(markdown.includes('It splits every character.\n\n```ts\nconst parts = s.split(",");\n```'));
    assert.ok(
      markdown.includes(
        '*Usage: 120 prompt + 45 completion tokens · 0.3 credits (balance change, estimate: other requests overlapped)*',
      ),
    );
  });

  it('lists the sources under the reply as numbered links whose titles cannot break the markdown', () => {
    assert.ok(
      markdown.includes(
        '```ts\nconst parts = s.split(",");\n```\n\n**Sources**\n\n' +
          '1. [Split \\](javascript:alert(1)) \\[x\\] \\<img src=x\\> \\*perf\\*](<https://split.example/perf?q=a(b)>)\n' +
          '2. [docs.example](<https://docs.example/split>)\n\n*Usage:',
      ),
      markdown,
    );
  });

  it('leaves out a saved source that is not http(s), and the list when none is left', () => {
    const text = exportMarkdown(
      conversation('s', {
        turns: [assistant('a', 'ok', { sources: [{ url: 'javascript:alert(1)', title: 'x' }] })],
      }),
    );
    assert.ok(!text.includes('Sources') && !text.includes('javascript'), text);
  });

  it('notes errors and stopped replies, closing a code block the reply left open', () => {
    assert.ok(
      markdown.includes(
        'Partial answer:\n```python\nprint(\n```\n\n> **Error (gateway unreachable):** Could not reach http://127.0.0.1:9 (connection refused)',
      ),
    );
    assert.ok(markdown.includes('Half a reply\n\n> *Stopped: the reply did not finish.*'));
    // Every fence is closed: the document ends outside any code block.
    const fences = markdown.split('\n').filter((line) => /^```/.test(line) && !line.startsWith('````'));
    assert.equal(fences.length % 2, 0);
    assert.ok(markdown.endsWith('> *Stopped: the reply did not finish.*\n'));
  });

  it('shortens long tool results and copes with backticks in names', () => {
    const text = exportMarkdown(
      conversation('t', {
        title: '  Multi\nline   title ',
        turns: [assistant('a', 'ok', { toolSteps: [{ kind: 'server', name: 'a`b', result: 'r'.repeat(500) }] })],
      }),
    );
    assert.ok(text.startsWith('# Multi line title\n'));
    assert.ok(text.includes(`- \`\`a\`b\`\` (on the gateway): \`${'r'.repeat(199)}…\``));
  });
});
