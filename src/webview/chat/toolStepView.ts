// One tool step of a reply in the DOM: a gateway (server) tool as a plain line; a function call with
// its status, its change, command or arguments, the sensitive and always-asked files it touches, the
// approval card while it waits, and its result.
import { guardedWriteWords, type GuardedWrite, type ToolStep } from '../../shared/chatModel';
import { approvalCard, type Arm } from './approvalCard';
import { el, icon, textButton } from './dom';
import type { Send } from './send';
import { changeView, commandView } from './toolChangeView';

const STEP_ICONS: Record<string, string> = {
  awaitingApproval: 'question',
  running: 'loading codicon-modifier-spin',
  done: 'check',
  denied: 'circle-slash',
  failed: 'error',
};
const STEP_WORDS: Record<string, string> = {
  awaitingApproval: 'waiting for your approval',
  running: 'running',
  done: 'done',
  denied: 'denied',
  failed: 'failed',
};

/** Files a call writes that are always asked about, each with why (text only: paths come from the model's arguments). */
function guardedNotice(guarded: readonly GuardedWrite[]): HTMLElement {
  const text = `Always asked: ${guarded.map((g) => `${g.path} (this file ${guardedWriteWords(g.reason)})`).join(', ')}`;
  return el(
    'div',
    { className: 'sensitive-note guarded-note', attrs: { role: 'note' } },
    icon('shield'),
    el('span', { text }),
  );
}

/** The sensitive files a tool call reads, named (text only: paths come from the model's arguments). */
function sensitiveNotice(paths: readonly string[]): HTMLElement {
  const text = `Sensitive ${paths.length === 1 ? 'file' : 'files'} (may hold secrets): ${paths.join(', ')}`;
  return el('div', { className: 'sensitive-note', attrs: { role: 'note' } }, icon('warning'), el('span', { text }));
}

export function toolStepView(step: ToolStep, send: Send, arm: Arm): HTMLLIElement {
  if (step.kind === 'server') {
    const where = step.server ? `on ${step.server}` : 'on the gateway';
    return el(
      'li',
      { className: `tool-step server${step.failed ? ' failed' : ''}` },
      el(
        'div',
        { className: 'step-line' },
        icon(step.failed ? 'error' : 'server-process'),
        el('span', { className: 'step-name', text: step.name }),
        el('span', { className: 'step-status', text: step.failed ? `failed ${where}` : `ran ${where}` }),
      ),
      step.arguments ? el('code', { className: 'step-args', text: step.arguments }) : undefined,
      step.result
        ? el(
            'details',
            {},
            el('summary', { text: 'Result' }),
            el('pre', { className: 'step-result', text: step.result }),
          )
        : undefined,
    );
  }
  const line = el(
    'div',
    { className: 'step-line' },
    icon(STEP_ICONS[step.status] ?? 'tools'),
    el('span', { className: 'step-name', text: step.name }),
    el('span', { className: 'step-status', text: STEP_WORDS[step.status] ?? step.status }),
  );
  const sensitive = step.sensitive ?? [];
  // An edit's card shows its change rather than the raw arguments (the diff says it better).
  const shown = step.change
    ? changeView(step.change, () => send({ type: 'openToolDiff', callId: step.id }))
    : step.command
      ? commandView(step.command)
      : el('code', { className: 'step-args', text: step.arguments });
  const item = el(
    'li',
    {
      className: `tool-step function ${step.status}${sensitive.length ? ' sensitive' : ''}`,
      attrs: { 'data-call-id': step.id },
    },
    line,
    shown,
  );
  // Kept after the decision too: the history shows which secrets a reply read or wrote.
  if (sensitive.length) item.append(sensitiveNotice(sensitive));
  const guarded = step.guarded ?? [];
  if (guarded.length) item.append(guardedNotice(guarded));
  // The host's words on what the call costs or starts (kept after the decision: the history shows what was agreed to).
  if (step.notice)
    item.append(
      el(
        'div',
        { className: 'sensitive-note cost-note', attrs: { role: 'note' } },
        icon('credit-card'),
        el('span', { text: step.notice }),
      ),
    );
  if (step.status === 'awaitingApproval') {
    // Never focused from here: see approvalCard.ts (typing in the composer must not approve).
    item.append(approvalCard(step, (decision) => send({ type: 'approveTool', callId: step.id, decision }), arm));
  }
  if (step.result)
    item.append(
      el('details', {}, el('summary', { text: 'Result' }), el('pre', { className: 'step-result', text: step.result })),
    );
  const jobId = step.researchJobId;
  if (jobId) item.append(textButton('Open Research Job', () => send({ type: 'openResearchJob', jobId }), true));
  return item;
}
