import * as assert from 'node:assert/strict';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AssistantTurn, ChatTurn, Conversation, UserTurn } from '../../../../../src/shared/chatModel';
import { ConversationStore } from '../../../../../src/core/chat/history/conversationStore';
import { baseOf, mergeConversations } from '../../../../../src/core/chat/history/conversationMerge';

const user = (id: string, at: number): UserTurn => ({
  role: 'user',
  id,
  text: `question ${id}`,
  attachments: [],
  createdAt: at,
});
const reply = (id: string, at: number, extra: Partial<AssistantTurn> = {}): AssistantTurn => ({
  role: 'assistant',
  id,
  model: 'sim-chat',
  content: `answer ${id}`,
  reasoning: '',
  toolSteps: [],
  status: 'done',
  wire: [],
  createdAt: at,
  ...extra,
});
const conversation = (id: string, turns: ChatTurn[]): Conversation => ({
  id,
  title: 'Shared',
  model: 'sim-chat',
  parameters: {},
  turns,
  createdAt: 1,
  updatedAt: 1,
});
const ids = (value: Conversation | undefined): string[] => value?.turns.map((turn) => turn.id) ?? [];

describe('chat history: one conversation in two places', function () {
  this.timeout(20_000);
  let root: string;
  let directory: string;
  const fresh = (): ConversationStore => new ConversationStore(directory);

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'ui-merge-'));
    directory = join(root, 'conversations');
    await fresh().save(conversation('c', [user('u1', 10), reply('a1', 20)]));
  });

  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  for (const [label, second] of [
    ['two windows (two stores)', true],
    ['the sidebar and a panel (one store)', false],
  ] as const) {
    it(`keeps the turns both sides appended, in time order: ${label}`, async () => {
      const storeA = fresh();
      const storeB = second ? fresh() : storeA;
      const a = (await storeA.load('c'))!;
      const b = (await storeB.load('c'))!;
      a.turns.push(user('u2', 30), reply('a2', 40));
      b.turns.push(user('u3', 35), reply('a3', 45));
      assert.deepEqual(await storeA.save(a), { kind: 'saved' });
      assert.deepEqual(await storeB.save(b), { kind: 'merged', fromOthers: 2 });
      assert.deepEqual(ids(await fresh().load('c')), ['u1', 'a1', 'u2', 'u3', 'a2', 'a3']);
      assert.deepEqual(ids(b), ['u1', 'a1', 'u2', 'u3', 'a2', 'a3'], 'the caller now shows the merge');
      // A's next save sees B's write and keeps it too.
      a.turns.push(user('u4', 50));
      assert.equal((await storeA.save(a)).kind, 'merged');
      assert.deepEqual(ids(await fresh().load('c')), ['u1', 'a1', 'u2', 'u3', 'a2', 'a3', 'u4']);
    });
  }

  it("a turn removed on one side (regenerate) stays removed; the other side's additions are kept", async () => {
    const store = fresh();
    const a = (await store.load('c'))!;
    const b = (await store.load('c'))!;
    a.turns.splice(1, 1, reply('a1-again', 25));
    await store.save(a);
    b.turns.push(user('u2', 30));
    assert.equal((await store.save(b)).kind, 'merged');
    assert.deepEqual(ids(await fresh().load('c')), ['u1', 'a1-again', 'u2']);
  });

  it("a reply finished in the other view replaces this view's partial copy, and the next save keeps it finished", async () => {
    const store = fresh();
    // The sidebar streams a reply; the panel opened the conversation mid-stream (a partial copy).
    const sidebar = (await store.load('c'))!;
    sidebar.turns.push(user('u2', 30), reply('a2', 40, { status: 'streaming', content: 'par' }));
    await store.save(sidebar);
    const panel = (await store.load('c'))!;
    assert.notEqual((panel.turns[3] as AssistantTurn).status, 'done', 'the panel holds an unfinished copy');
    // The sidebar's reply ends; then the panel sends a message.
    Object.assign(sidebar.turns[3]!, { status: 'done', content: 'partial no more' });
    await store.save(sidebar);
    panel.turns.push(user('u3', 50));
    assert.equal((await store.save(panel)).kind, 'merged');
    assert.equal((panel.turns[3] as AssistantTurn).content, 'partial no more', 'the panel shows the finished reply');
    // The panel's next save (its own reply ending) must not write the stale copy back.
    panel.turns.push(reply('a3', 60));
    await store.save(panel);
    const onDisk = (await fresh().load('c'))!;
    assert.equal((onDisk.turns[3] as AssistantTurn).status, 'done');
    assert.equal((onDisk.turns[3] as AssistantTurn).content, 'partial no more');
    assert.deepEqual(ids(onDisk), ['u1', 'a1', 'u2', 'a2', 'u3', 'a3']);
  });

  it('saves a copy when both sides rewrote history, leaving the other version in place', async () => {
    const store = fresh();
    const a = (await store.load('c'))!;
    const b = (await store.load('c'))!;
    a.turns.splice(1, 1, reply('a1-from-a', 25));
    await store.save(a);
    b.turns.splice(1, 1, reply('a1-from-b', 26));
    const outcome = await store.save(b);
    assert.equal(outcome.kind, 'copied');
    assert.notEqual(b.id, 'c');
    assert.equal(b.title, 'Shared (copy)');
    assert.deepEqual(ids(await fresh().load('c')), ['u1', 'a1-from-a']);
    assert.deepEqual(ids(await fresh().load(b.id)), ['u1', 'a1-from-b']);
    assert.deepEqual((await fresh().list()).map((row) => row.title).sort(), ['Shared', 'Shared (copy)']);
  });

  it('a delete sticks: a later save from the other place is refused, not a resurrection', async () => {
    const storeA = fresh();
    const storeB = fresh();
    const b = (await storeB.load('c'))!;
    await storeA.delete('c');
    b.turns.push(user('u2', 30));
    assert.deepEqual(await storeB.save(b), { kind: 'deleted' });
    assert.deepEqual(
      (await readdir(directory)).filter((name) => name.startsWith('c')),
      [],
    );
    assert.deepEqual(await storeB.list(), []);
    // Its user may keep it: a copy under a new id saves.
    assert.deepEqual(await storeB.save({ ...b, id: 'c-copy' }), { kind: 'saved' });
  });

  it('undo of a delete (saving back what delete returned) still restores it', async () => {
    const store = fresh();
    await store.load('c');
    const removed = await store.delete('c');
    assert.ok(removed);
    assert.deepEqual(await store.save(removed), { kind: 'saved' });
    assert.deepEqual(ids(await fresh().load('c')), ['u1', 'a1']);
  });

  it('a rename made elsewhere survives the next save of an open copy', async () => {
    const store = fresh();
    const open = (await store.load('c'))!;
    await fresh().rename('c', 'Renamed elsewhere');
    open.turns.push(user('u2', 30));
    await store.save(open);
    const loaded = await fresh().load('c');
    assert.equal(loaded?.title, 'Renamed elsewhere');
    assert.equal(open.title, 'Renamed elsewhere');
    assert.deepEqual(ids(loaded), ['u1', 'a1', 'u2']);
  });

  it('overwrites a file that became corrupt under it (moved aside, never merged into)', async () => {
    const store = fresh();
    const open = (await store.load('c'))!;
    await writeFile(join(directory, 'c.json'), '{"torn');
    open.turns.push(user('u2', 30));
    assert.deepEqual(await store.save(open), { kind: 'saved' });
    assert.deepEqual(ids(await fresh().load('c')), ['u1', 'a1', 'u2']);
    assert.equal((await readdir(directory)).filter((name) => name.includes('.corrupt-')).length, 1);
  });

  it("mergeConversations: a reply finished elsewhere wins over this side's unfinished copy; unchanged fields take theirs", () => {
    const base = conversation('c', [user('u1', 10), reply('a1', 20, { status: 'stopped', content: 'ans' })]);
    const ours = { ...base, turns: [...base.turns] };
    const theirs = {
      ...base,
      title: 'Theirs',
      parameters: { temperature: 0.5 },
      turns: [user('u1', 10), reply('a1', 20, { content: 'answer in full' })],
    };
    const result = mergeConversations(ours, theirs, baseOf(base));
    assert.equal(result.kind, 'merged');
    if (result.kind !== 'merged') return;
    assert.equal((result.conversation.turns[1] as AssistantTurn).content, 'answer in full');
    assert.equal(result.conversation.title, 'Theirs');
    assert.deepEqual(result.conversation.parameters, { temperature: 0.5 });
    assert.equal(result.fromTheirs, 0);
    const ourTitle = mergeConversations({ ...ours, title: 'Ours' }, theirs, baseOf(base));
    assert.equal(
      ourTitle.kind === 'merged' && ourTitle.conversation.title,
      'Ours',
      'a field changed on both sides: ours',
    );
  });
});
