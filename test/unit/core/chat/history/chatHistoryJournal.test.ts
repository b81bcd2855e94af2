import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AssistantTurn, Conversation } from '../../../../../src/shared/chatModel';
import { ConversationStore } from '../../../../../src/core/chat/history/conversationStore';
import { INTERRUPTED_NOTE, journalName, readJournal } from '../../../../../src/core/chat/history/replyJournal';
import { journalWord } from './journalWriterChild';

function reply(id: string, content = '', extra: Partial<AssistantTurn> = {}): AssistantTurn {
  return {
    role: 'assistant',
    id,
    model: 'sim-chat',
    content,
    reasoning: '',
    toolSteps: [],
    status: 'streaming',
    wire: [],
    createdAt: 2,
    ...extra,
  };
}

function conversation(id: string, turns: Conversation['turns']): Conversation {
  return { id, title: 'Journal', model: 'sim-chat', parameters: {}, turns, createdAt: 1, updatedAt: 1 };
}

const user = { role: 'user' as const, id: 'u1', text: 'Tell me a story', attachments: [], createdAt: 1 };

/** The pid of a process that has exited (a crashed window's). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '']);
  assert.ok(child.pid);
  return child.pid;
}

describe('chat history: the reply journal', function () {
  this.timeout(20_000);
  let root: string;
  let directory: string;
  let problems: string[];
  const fresh = (): ConversationStore => new ConversationStore(directory, (message) => problems.push(message));
  const journalPath = (id: string): string => join(directory, journalName(id));

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'ui-journal-'));
    directory = join(root, 'conversations');
    problems = [];
  });

  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  /** Every file in the folder parses (the conversations and the index as JSON). */
  async function assertAllFilesParse(): Promise<void> {
    for (const name of await readdir(directory)) {
      if (name.endsWith('.json'))
        assert.doesNotThrow(() => JSON.parse(readFileSync(join(directory, name), 'utf8')), name);
    }
  }

  it('brings back the reply of a writer killed with SIGKILL mid-stream, at least all it had made durable', async () => {
    await mkdir(directory, { recursive: true });
    const child = spawn(process.execPath, [join(__dirname, 'journalWriterChild.js'), directory, 'killed'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    let durable = 0;
    let buffer = '';
    // Wait on state: the child reports each batch it has fsync'd; kill it once several are on disk.
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        buffer += chunk.toString();
        const lines = buffer.split('\n');
        buffer = lines.pop() ?? '';
        for (const line of lines) durable = Math.max(durable, Number(/^durable (\d+)$/.exec(line)?.[1] ?? 0));
        if (durable >= 20_000) resolve();
      });
      child.once('exit', (code) => reject(new Error(`the writer exited on its own (${code})`)));
    });
    child.kill('SIGKILL');
    await exited;
    assert.ok((await stat(journalPath('killed'))).size > 0, 'the journal is there');

    const store = fresh();
    const rows = await store.list(); // recovery happens on the first list, as the history view opens
    assert.deepEqual(
      rows.map((row) => row.id),
      ['killed'],
    );
    await assert.rejects(stat(journalPath('killed')), 'the journal is folded in and removed');
    const loaded = await store.load('killed');
    const recovered = loaded?.turns[1] as AssistantTurn;
    assert.ok(
      recovered.content.length >= durable,
      `at least the ${durable} durable characters (got ${recovered.content.length})`,
    );
    let expected = '';
    for (let n = 0; expected.length < recovered.content.length; n++) expected += journalWord(n);
    assert.equal(recovered.content, expected.slice(0, recovered.content.length), 'in order, nothing doubled or torn');
    assert.ok(recovered.reasoning.startsWith('thinking thinking '));
    assert.equal(recovered.status, 'stopped');
    assert.equal(recovered.error?.kind, 'interrupted');
    assert.equal(recovered.error?.message, INTERRUPTED_NOTE);
    assert.equal(loaded?.turns[0]?.role, 'user', "the user's message was on disk before the reply");
    await assertAllFilesParse();
    assert.deepEqual(await fresh().load('killed'), loaded, 'folded into the file for good');
  });

  it('ignores a torn last line (a crash mid-append) and any damaged line, keeping the rest', async () => {
    const store = fresh();
    await store.save(conversation('torn', [user, reply('a1')]));
    const lines = [
      JSON.stringify({ v: 1, pid: deadPid(), turn: reply('a1') }),
      JSON.stringify({ t: 'a1', f: 'c', at: 0, d: 'Once upon ' }),
      'garbage that is not JSON',
      JSON.stringify({ t: 'a1', f: 'c', at: 10, d: 'a time' }),
      JSON.stringify({ t: 'a1', f: 'c', at: 16, d: ', there was' }).slice(0, 20),
    ];
    await writeFile(journalPath('torn'), lines.join('\n'));
    const loaded = await fresh().load('torn');
    assert.equal((loaded?.turns[1] as AssistantTurn).content, 'Once upon a time');
    await assert.rejects(stat(journalPath('torn')));
    await assertAllFilesParse();
  });

  it('never doubles text a full save already holds, and skips a batch after a gap', async () => {
    const store = fresh();
    await store.save(conversation('overlap', [user, reply('a1', 'Hello wor')]));
    const lines = [
      JSON.stringify({ v: 1, pid: deadPid(), turn: reply('a1') }),
      JSON.stringify({ t: 'a1', f: 'c', at: 0, d: 'Hello ' }),
      JSON.stringify({ t: 'a1', f: 'c', at: 6, d: 'world' }),
      JSON.stringify({ t: 'a1', f: 'c', at: 11, d: '!' }),
      JSON.stringify({ t: 'a1', f: 'c', at: 99, d: 'misplaced' }),
    ];
    await writeFile(journalPath('overlap'), `${lines.join('\n')}\n`);
    const loaded = await fresh().load('overlap');
    assert.equal((loaded?.turns[1] as AssistantTurn).content, 'Hello world!');
  });

  it('adds the reply from the header when no full save recorded it', async () => {
    const store = fresh();
    await store.save(conversation('header', [user]));
    const lines = [
      JSON.stringify({ v: 1, pid: deadPid(), turn: reply('a9') }),
      JSON.stringify({ t: 'a9', f: 'c', at: 0, d: 'Partial' }),
    ];
    await writeFile(journalPath('header'), `${lines.join('\n')}\n`);
    const loaded = await fresh().load('header');
    assert.deepEqual(
      loaded?.turns.map((turn) => turn.id),
      ['u1', 'a9'],
    );
    assert.equal((loaded?.turns[1] as AssistantTurn).content, 'Partial');
    assert.equal((loaded?.turns[1] as AssistantTurn).error?.kind, 'interrupted');
  });

  it('appends only the new text (O(new text) per write) and removes the journal when the reply is saved', async () => {
    const store = fresh();
    const turn = reply('a1');
    const live = conversation('cost', [user, turn]);
    await store.save(live);
    const journal = store.startJournal('cost', turn);
    await journal.flush();
    const headerSize = (await stat(journalPath('cost'))).size;
    const sizes: number[] = [];
    for (let i = 0; i < 20; i++) {
      const piece = `piece ${i} `.repeat(10);
      turn.content += piece;
      journal.append(piece, undefined);
      await journal.flush();
      sizes.push((await stat(journalPath('cost'))).size);
    }
    const growth = sizes.map((size, i) => size - (sizes[i - 1] ?? headerSize));
    assert.ok(Math.max(...growth) < 200, `each write adds about its batch (${growth.join(', ')})`);
    assert.equal((await readJournal(journalPath('cost')))?.batches.length, 20);
    // A second store (another window) sees the live reply as far as it got, without folding it.
    const seen = await fresh().load('cost');
    assert.equal((seen?.turns[1] as AssistantTurn).content, turn.content);
    assert.ok((await stat(journalPath('cost'))).size > 0, 'a live writer keeps its journal');
    turn.status = 'done';
    await store.save(live);
    await journal.close(true);
    await assert.rejects(stat(journalPath('cost')));
    assert.equal(((await fresh().load('cost'))?.turns[1] as AssistantTurn).content, turn.content);
  });

  it('deleting a conversation removes its journal too', async () => {
    const store = fresh();
    await store.save(conversation('gone', [user, reply('a1')]));
    await writeFile(journalPath('gone'), `${JSON.stringify({ v: 1, pid: deadPid(), turn: reply('a1') })}\n`);
    await store.delete('gone');
    assert.deepEqual(
      (await readdir(directory)).filter((name) => name.startsWith('gone')),
      [],
    );
    assert.equal(
      await readFile(join(directory, 'index.v1.json'), 'utf8').then((text) => text.includes('"gone"')),
      false,
    );
  });
});
