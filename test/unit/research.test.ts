import * as assert from 'node:assert/strict';
import { appendPage, chunkPages, uniqueJobs } from '../../src/core/research/jobPages';
import {
  demoteHeadings,
  failureReason,
  lookOf,
  outcomeMessage,
  relativeAge,
  reportMarkdown,
  researchOfferText,
  unreadBadgeTooltip,
} from '../../src/core/research/jobPresentation';
import {
  describeFilter,
  DEFAULT_QUERY,
  inProgressQuery,
  jobsByIdQuery,
  listQuery,
} from '../../src/core/research/researchQuery';
import { readManifest } from './manifest';

const now = Date.parse('2026-11-22T10:00:00.000Z');
const job = {
  id: 'a1b2',
  status: 'running',
  title: 'Vector databases',
  topic: 'Compare vector databases',
  createdAt: '2026-11-22T09:57:00.000Z',
  updatedAt: '2026-11-22T09:58:00.000Z',
};

describe('deep research approval', () => {
  it("shows the topic's hidden and bidi characters as badges, on one line", () => {
    const text = researchOfferText('Vector\tdatabases\n\u202Eexe.txt\u202C zero\u200Bwidth\u00A0end');
    assert.ok(
      text.startsWith(
        'Start a deep research job on "Vector databases ⟨U+202E⟩exe.txt⟨U+202C⟩ zero⟨U+200B⟩width⟨U+00A0⟩end"? A research job costs credits',
      ),
      text,
    );
    assert.ok(!/[\u202A-\u202E\u200B\u00A0\n\t]/.test(text), text);
  });

  it('shows at most 300 characters of a long topic, never half an emoji', () => {
    const text = researchOfferText(`${'a'.repeat(299)}😀 and more`);
    assert.ok(text.includes(`"${'a'.repeat(299)}😀"?`), text.slice(0, 40));
    assert.ok(!text.includes('and more'));
  });
});

describe('research view: queries', () => {
  it('lists newest first with no filter', () => {
    assert.deepEqual(listQuery(DEFAULT_QUERY, 1, 20), { limit: 20, page: 1, sort: '-createdAt' });
    assert.equal(describeFilter(DEFAULT_QUERY), undefined);
  });

  it('builds where clauses from status and topic text, combined with and', () => {
    assert.deepEqual(listQuery({ status: 'succeeded', text: '', sort: 'title' }, 2, 20), {
      limit: 20,
      page: 2,
      sort: 'title',
      where: { status: { in: ['succeeded', 'completed'] } },
    });
    const both = listQuery({ status: 'inProgress', text: ' vector ', sort: 'updated' }, 1, 20);
    assert.equal(both.sort, '-updatedAt');
    assert.deepEqual(both.where, {
      and: [
        { status: { not_in: ['succeeded', 'completed', 'failed', 'error', 'cancelled', 'canceled', 'timeout'] } },
        { topic: { contains: 'vector' } },
      ],
    });
    assert.equal(
      describeFilter({ status: 'failed', text: 'x', sort: 'newest' }),
      'Filter: Failed or cancelled, topic contains "x"',
    );
  });
});

describe('research polling: queries', () => {
  it('polls every non-terminal status (unknown ones too), newest first, 100 at once', () => {
    assert.deepEqual(inProgressQuery(), {
      where: { status: { not_in: ['succeeded', 'completed', 'failed', 'error', 'cancelled', 'canceled', 'timeout'] } },
      limit: 100,
      sort: '-createdAt',
    });
  });

  it('reads finished jobs by id through the list when their detail is unavailable', () => {
    assert.deepEqual(jobsByIdQuery(['a', 'b']), { where: { id: { in: ['a', 'b'] } }, limit: 2, sort: '-createdAt' });
    assert.throws(() => jobsByIdQuery([]), RangeError);
    assert.throws(() => jobsByIdQuery(Array.from({ length: 101 }, (_, i) => String(i))), RangeError);
  });
});

describe('research view: pages', () => {
  const j = (id: string, status = 'succeeded') => ({ id, status });

  it('shows a job once when pages shift (a job created between two pages)', () => {
    const first = [j('9'), j('8'), j('7')];
    // A new job "10" pushed "7" onto the next page: it comes again.
    const next = appendPage([first], [j('7', 'failed'), j('6'), j('5')]);
    assert.deepEqual(
      next.flat().map((job) => job.id),
      ['9', '8', '7', '6', '5'],
    );
    assert.equal(next[0]![2]!.status, 'failed', 'the repeated job keeps its place and takes the newer fields');
    assert.deepEqual(
      appendPage([], [j('1'), j('1'), j('2')])
        .flat()
        .map((job) => job.id),
      ['1', '2'],
    );
  });

  it('cuts a window read again into pages, each id once', () => {
    const ids = (pages: { id: string }[][]): string[][] => pages.map((page) => page.map((job) => job.id));
    assert.deepEqual(ids(chunkPages([j('5'), j('4'), j('4'), j('3'), j('2'), j('1')], 2)), [
      ['5', '4'],
      ['3', '2'],
      ['1'],
    ]);
    assert.deepEqual(chunkPages([], 20), [[]]);
  });

  it('keeps the first of repeated ids', () => {
    assert.deepEqual(uniqueJobs([j('a', 'queued'), j('b'), j('a', 'running')]), [j('a', 'queued'), j('b')]);
  });
});

describe('research view: jobs', () => {
  it('shows status and age, with icons per status', () => {
    assert.deepEqual(
      [lookOf(job, now).label, lookOf(job, now).description, lookOf(job, now).icon],
      ['Running · Vector databases', '3 min ago', 'sync~spin'],
    );
    assert.equal(lookOf({ ...job, status: 'queued' }, now).icon, 'clock');
    assert.equal(lookOf({ ...job, status: 'succeeded' }, now).icon, 'pass');
    assert.equal(lookOf({ ...job, status: 'cancelled' }, now).icon, 'error');
    const odd = lookOf({ ...job, status: 'paused-by-admin' }, now);
    assert.equal(odd.icon, 'question');
    assert.match(
      odd.tooltipLines.find((line) => line.startsWith('Status: ')) ?? '',
      /paused-by-admin \(not a status this extension knows: treated as in progress\)/,
    );
  });

  it('puts the status before a long topic, which a narrow side bar cuts, and keeps the whole topic in the tooltip', () => {
    const topic =
      'How do server-sent event streams recover from dropped connections behind corporate proxies and load balancers?';
    const look = lookOf({ ...job, title: undefined, topic, status: 'running' }, now);
    // A side bar about 300 px wide shows some 35 characters of a row: the status is in them.
    assert.ok(look.label.slice(0, 35).startsWith('Running · How do server-sent'), look.label);
    assert.ok(look.tooltipLines.includes(`Topic: ${topic}`));
    assert.equal(look.accessibilityLabel, `Running: ${topic}, 3 min ago`);
    assert.equal(lookOf({ ...job, status: 'queued' }, now).label, 'Queued · Vector databases');
    assert.equal(lookOf({ ...job, status: 'failed' }, now).label, 'Failed · Vector databases');
    assert.equal(lookOf({ ...job, status: 'cancelled' }, now).label, 'Cancelled · Vector databases');
    assert.equal(lookOf({ ...job, status: 'paused-by-admin' }, now).label, 'paused-by-admin · Vector databases');
    // A title that is not the topic: both in the tooltip, the title first.
    assert.equal(lookOf(job, now).tooltipLines[0], 'Vector databases');
  });

  it('marks a finished job "Report ready", and "New report" (filled icon) until its report is opened', () => {
    const done = { ...job, status: 'succeeded' };
    const read = lookOf(done, now);
    const unread = lookOf(done, now, { unread: true });
    assert.deepEqual([read.label, read.icon, read.phase], ['Report ready · Vector databases', 'pass', 'succeeded']);
    assert.deepEqual([unread.label, unread.icon], ['New report · Vector databases', 'pass-filled']);
    assert.equal(unread.accessibilityLabel, 'New report: Vector databases, 3 min ago');
    assert.equal(read.tooltipLines.at(-1), 'Click to open the report.');
    assert.ok(!lookOf(job, now).tooltipLines.includes('Click to open the report.'), 'not while it runs');
    assert.equal(unreadBadgeTooltip(1), '1 research report ready to read');
    assert.equal(unreadBadgeTooltip(3), '3 research reports ready to read');
  });

  it('says how old a job is', () => {
    assert.equal(relativeAge('2026-11-22T09:59:40.000Z', now), 'just now');
    assert.equal(relativeAge('2026-11-22T07:00:00.000Z', now), '3 h ago');
    assert.equal(relativeAge('2026-11-19T10:00:00.000Z', now), '3 d ago');
    assert.equal(relativeAge('not a date', now), 'time unknown');
  });

  it('finds the failure reason in its usual places', () => {
    assert.equal(failureReason({ id: '1', status: 'failed', error: 'Upstream timed out' }), 'Upstream timed out');
    assert.equal(failureReason({ id: '1', status: 'failed', error: { message: 'Quota' } }), 'Quota');
    assert.equal(failureReason({ id: '1', status: 'failed', reason: 'Cancelled by user' }), 'Cancelled by user');
    assert.equal(failureReason({ id: '1', status: 'failed' }), undefined);
  });

  it('announces a finish, and a failure with the reason wherever the job gives it', () => {
    assert.equal(outcomeMessage(job, 'succeeded'), 'Research finished: Vector databases');
    assert.equal(
      outcomeMessage({ ...job, status: 'failed', error: { message: 'Upstream timed out' } }, 'failed'),
      'Research failed: Vector databases: Upstream timed out',
    );
    assert.equal(
      outcomeMessage({ ...job, status: 'failed', failureReason: 'No sources' }, 'failed'),
      'Research failed: Vector databases: No sources',
    );
    assert.equal(outcomeMessage({ ...job, status: 'cancelled' }, 'failed'), 'Research failed: Vector databases');
  });
});

describe('research report document', () => {
  const detail = {
    ...job,
    status: 'succeeded',
    report: { markdown: '## Findings\n\nPostgres with pgvector is enough for most.' },
    citations: [
      'https://example.com/a',
      { url: 'https://example.com/b(1)', title: 'B [draft]' },
      { url: 'javascript:alert(1)', title: 'evil' },
    ],
  };

  it('has title, facts, the report text and numbered sources', () => {
    const text = reportMarkdown(job, detail);
    assert.match(text, /^# Vector databases/);
    assert.match(text, /\| Status \| succeeded \|/);
    assert.match(text, /\| Job id \| `a1b2` \|/);
    assert.match(text, /#### Findings\n\nPostgres with pgvector/, "the report's headings sit under ## Report");
    assert.match(text, /1\. \[https:\/\/example\.com\/a\]\(https:\/\/example\.com\/a\)/);
    assert.match(text, /2\. \[B \\\[draft\\\]\]\(https:\/\/example\.com\/b%281%29\)/);
    assert.match(text, /3\. evil \(javascript:alert\(1\)\)/, 'a non-http source is text, not a link');
    assert.ok(!text.includes('](javascript:'));
  });

  it('shows the title once: no topic row that repeats it, no report heading that repeats it', () => {
    const topic = 'Which vector database suits code search?';
    const started = { ...job, status: 'succeeded', title: topic, topic };
    const text = reportMarkdown(started, {
      ...started,
      report: {
        markdown: `# Which vector database suits code search?\n\n> Written by a model.\n\n## Summary\n\nUse pgvector.`,
      },
    });
    assert.equal(text.split(topic).length - 1, 1, text);
    assert.match(text, /^# Which vector database suits code search\?\n/);
    assert.match(text, /## Report\n\n> Written by a model\.\n\n#### Summary/);
    // A title the gateway cut from a long topic: the heading is the whole topic, said once.
    const long = 'How do server-sent event streams recover from dropped connections behind corporate proxies?';
    const cut = { ...job, status: 'succeeded', title: `${long.slice(0, 60)}…`, topic: long };
    const cutText = reportMarkdown(cut, { ...cut, report: { markdown: `# ${cut.title}\n\nBody.` } });
    assert.match(cutText, new RegExp(`^# ${long.replace(/[?]/g, '\\?')}\n`));
    assert.ok(!cutText.includes('| Topic |'), cutText);
    assert.ok(!cutText.includes(cut.title), 'the cut title is not repeated as a heading');
    // A topic other than the title, and a report heading other than the title, stay.
    const other = reportMarkdown(job, { ...job, status: 'succeeded', report: { markdown: '# Key findings\n\nText.' } });
    assert.match(other, /\| Topic \| Compare vector databases \|/);
    assert.match(other, /### Key findings/);
  });

  it('says clearly when the detail is unavailable and shows what the list gives', () => {
    const text = reportMarkdown({ ...job, status: 'succeeded' }, undefined, 'HTTP 404');
    assert.match(text, /The job's details could not be read\*\* \(HTTP 404\)/);
    assert.match(text, /No report text is available/);
    assert.match(text, /\| Topic \| Compare vector databases \|/);
  });

  it('explains an unfinished job and shows a failure reason', () => {
    assert.match(reportMarkdown(job, job), /still in progress/);
    // The hint names the action that exists (package.json: "Refresh Report" in the report's title bar).
    assert.match(
      reportMarkdown(job, job),
      /use Refresh Report \(the refresh button in the title bar of the report's editor or preview, or "Unified Inference: Refresh Report"/,
    );
    assert.match(
      reportMarkdown(job, { ...job, status: 'failed', error: 'No sources found' }),
      /The job failed:\*\* No sources found/,
    );
  });
});

describe('report headings', () => {
  it('shifts headings down two levels, not inside code fences, capped at six', () => {
    const input = [
      '# Title',
      'text # not a heading',
      '```md',
      '# inside a fence',
      '```',
      '##### Deep',
      '####### not a heading either',
    ].join('\n');
    assert.equal(
      demoteHeadings(input),
      [
        '### Title',
        'text # not a heading',
        '```md',
        '# inside a fence',
        '```',
        '###### Deep',
        '####### not a heading either',
      ].join('\n'),
    );
  });
});

describe('report actions in the manifest', () => {
  type Contribution = { command: string; title?: string; icon?: string; when?: string; group?: string };
  const manifest = readManifest<{ contributes: { commands: Contribution[]; menus: Record<string, Contribution[]> } }>();

  it('offers "Refresh Report" with a codicon in the title bar of a report (its source and its preview)', () => {
    const command = manifest.contributes.commands.find((c) => c.command === 'unifiedInference.research.refreshReport');
    assert.equal(command?.title, 'Refresh Report');
    assert.match(command?.icon ?? '', /^\$\([a-z-]+\)$/);
    const entry = manifest.contributes.menus['editor/title']?.find(
      (c) => c.command === 'unifiedInference.research.refreshReport',
    );
    assert.ok(entry, 'an editor/title entry');
    assert.match(entry.when ?? '', /resourceScheme == unified-inference-research/);
    assert.match(entry.when ?? '', /unifiedInference\.research\.reportActive/);
    assert.equal(entry.group, 'navigation', 'shown as an icon, not in the ... menu');
  });

  it('keeps the reveal command (for @unified /research) out of the palette', () => {
    assert.ok(manifest.contributes.commands.some((c) => c.command === 'unifiedInference.research.reveal'));
    assert.equal(
      manifest.contributes.menus.commandPalette?.find((c) => c.command === 'unifiedInference.research.reveal')?.when,
      'false',
    );
  });
});
