import * as assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AssistantTurn, Conversation, UserTurn } from '../../../../../src/shared/chatModel';
import {
  idsWith,
  mapLimited,
  moveAside,
  readConversationFile,
} from '../../../../../src/core/chat/history/conversationFiles';
import {
  entryOf,
  INDEX_FILE,
  readIndex,
  summaryOf,
  writeIndex,
} from '../../../../../src/core/chat/history/conversationIndex';
import { adoptMerge, mergeConversations, baseOf } from '../../../../../src/core/chat/history/conversationMerge';
import { ConversationSearch, searchTextOf } from '../../../../../src/core/chat/history/conversationSearch';

const T0 = Date.UTC(2025, 0, 15, 9, 30);
const user = (id: string, text: string, at = T0): UserTurn => ({
  role: 'user',
  id,
  text,
  attachments: [],
  createdAt: at,
});
const assistant = (id: string, content: string, extra: Partial<AssistantTurn> = {}): AssistantTurn => ({
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
});
const conversation = (id: string, extra: Partial<Conversation> = {}): Conversation => ({
  id,
  title: `Conversation ${id}`,
  model: 'sim-chat',
  parameters: {},
  turns: [user(`${id}-u1`, 'Hello there'), assistant(`${id}-a1`, 'General Kenobi')],
  createdAt: T0,
  updatedAt: T0,
  ...extra,
});

describe('chat history pieces', () => {
  let dir: string;
  beforeEach(async () => (dir = await mkdtemp(join(tmpdir(), 'history-pieces-'))));
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('the index round-trips its entries and drops rows that are not entries', async () => {
    const entry = entryOf(conversation('a'), { mtimeMs: 5, size: 7 });
    await writeIndex(dir, new Map([['a', entry]]));
    assert.deepEqual([...(await readIndex(dir, () => assert.fail('no problem expected'))).values()], [entry]);
    assert.deepEqual(summaryOf(entry), {
      id: 'a',
      title: 'Conversation a',
      model: 'sim-chat',
      updatedAt: T0,
      turnCount: 2,
      cost: { credits: 0, approximate: false, unknownReplies: 1 },
    });
    await writeFile(
      join(dir, INDEX_FILE),
      JSON.stringify({
        version: 1,
        conversations: [entry, { ...entry, id: '../x' }, { ...entry, id: 'b', size: 'big' }],
      }),
    );
    assert.deepEqual([...(await readIndex(dir, () => undefined)).keys()], ['a']);
  });

  it('a missing index is empty without a problem; a corrupt one is empty with one', async () => {
    const problems: string[] = [];
    assert.equal((await readIndex(dir, (p) => problems.push(p))).size, 0);
    assert.equal(problems.length, 0);
    await writeFile(join(dir, INDEX_FILE), '{"version":2,"conversations":[]}');
    assert.equal((await readIndex(dir, (p) => problems.push(p))).size, 0);
    assert.match(problems[0] ?? '', /corrupt \(unknown format\)/);
  });

  it('reads a file as ok, missing or corrupt, and moves a corrupt one aside only when unchanged', async () => {
    await writeFile(join(dir, 'a.json'), JSON.stringify(conversation('a')));
    await writeFile(join(dir, 'b.json'), '{ not json');
    const ok = await readConversationFile(dir, 'a');
    assert.equal(ok.kind, 'ok');
    assert.equal((await readConversationFile(dir, 'zz')).kind, 'missing');
    const bad = await readConversationFile(dir, 'b');
    assert.ok(bad.kind === 'corrupt');
    await moveAside(dir, 'b', { reason: bad.reason, stamp: { mtimeMs: 1, size: 1 } }, () =>
      assert.fail('a changed file stays'),
    );
    const problems: string[] = [];
    await moveAside(dir, 'b', bad, (p) => problems.push(p));
    assert.match(problems[0] ?? '', /moved it aside to b\.corrupt-\d+\.json/);
    assert.deepEqual(await idsWith(dir, '.json'), ['a']);
  });

  it('mapLimited keeps the order of the items', async () => {
    const items = Array.from({ length: 40 }, (_, i) => i);
    assert.deepEqual(
      await mapLimited(items, async (i) => {
        await new Promise((r) => setTimeout(r, (i * 7) % 5));
        return i * 2;
      }),
      items.map((i) => i * 2),
    );
  });

  it('search looks in the title and each turn, never across two turns, and reads only what it lacks', async () => {
    const c = conversation('a', { turns: [user('u', 'alpha'), assistant('x', 'beta')] });
    assert.equal(searchTextOf(c), 'conversation a\u0000alpha\u0000beta');
    const search = new ConversationSearch();
    search.start();
    const stamp = { mtimeMs: 1, size: 2 };
    search.note(c, stamp);
    const entry = { id: 'a', title: c.title, ...stamp };
    const noRead = async (): Promise<Conversation> => assert.fail('cached text expected');
    assert.equal(await search.matches(entry, 'beta', noRead), true);
    assert.equal(await search.matches(entry, 'alphabeta', noRead), false);
    let reads = 0;
    assert.equal(await search.matches({ ...entry, size: 3 }, 'beta', async () => (reads++, c)), true);
    assert.equal(reads, 1);
  });

  it('adoptMerge keeps the live turn where ours was kept, takes theirs where it finished, and keeps later turns', () => {
    const partial = assistant('a1', 'Gen', { status: 'streaming' });
    const ours = conversation('c', { turns: [user('u1', 'hi'), partial] });
    const live: Conversation = { ...ours, turns: [...ours.turns, user('u2', 'later', T0 + 5000)] };
    const theirs = conversation('c', {
      turns: [user('u1', 'hi'), assistant('a1', 'General Kenobi')],
      title: 'Renamed',
    });
    const merge = mergeConversations(ours, theirs, baseOf(ours));
    assert.ok(merge.kind === 'merged');
    const adopted = adoptMerge(live, ours, merge.conversation, merge.fromTheirs);
    assert.deepEqual(adopted, { changed: true, fromOthers: 1 });
    assert.deepEqual(
      live.turns.map((t) => t.id),
      ['u1', 'a1', 'u2'],
    );
    assert.equal(live.turns[0], ours.turns[0]);
    assert.equal((live.turns[1] as AssistantTurn).content, 'General Kenobi');
    assert.equal(live.title, 'Renamed');
    const same = mergeConversations(ours, ours, baseOf(ours));
    assert.ok(same.kind === 'merged');
    assert.deepEqual(adoptMerge({ ...ours }, ours, same.conversation, same.fromTheirs), {
      changed: false,
      fromOthers: 0,
    });
  });
});
