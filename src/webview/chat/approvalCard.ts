// The buttons of a tool call waiting for approval. Only a deliberate act approves:
// - the card never takes the focus: a user typing in the composer while a reply runs would approve
//   whatever card arrived next with the next space or Enter. It is announced (the app's live
//   region), and reached by Tab / Shift+Tab or by the shortcut;
// - its buttons stay disabled (drawn as such) for a moment after it appears, so a click or a key
//   meant for what was under the pointer or in focus before lands on nothing;
// - a card that can only be allowed once (a terminal command, a sensitive file, a file that can run
//   code or instruct the model) is allowed by a pointer click or by the shortcut, never by Enter
//   or Space on a focused button. Deny stays keyboard-easy: denying is always safe.
// The shortcut, Ctrl+Shift+Alt+Enter (Cmd+Shift+Option+Enter on macOS), types nothing on any
// layout (Alt+letter types letters on macOS, AltGr+letter elsewhere), is no reflex (Ctrl+Enter
// sends in many chats), and means nothing else in VS Code: Ctrl+Alt+Enter is "Skip" in VS Code's
// own chat confirmations and Alt+Shift+Enter "Send". While a card waits the chat keeps the key
// (the webview's host forwards keys to VS Code from the window, after the document).
import { guardedWriteWords, type ToolStep } from '../../shared/chatModel';
import type { ApprovalDecision } from '../../shared/chatProtocol';
import { visibleText } from '../../shared/visibleControls';
import { el, textButton } from './dom';
import { changeSummary } from './toolChangeView';

/** As long as Firefox keeps its install and download prompts disabled (security.dialog_enable_delay). */
const ARMING_MS = 1000;
const ALLOW_SHORTCUT = 'Ctrl+Shift+Alt+Enter';

/** Calls `arm` when the card may take a decision (a test arms on its own terms). */
export type Arm = (arm: () => void) => void;
export const armAfterDelay: Arm = (arm) => {
  setTimeout(arm, ARMING_MS);
};

type FunctionStep = Extract<ToolStep, { kind: 'function' }>;

/** Each pending card's "allow once" as the shortcut takes it. */
const shortcutAllows = new WeakMap<Element, () => void>();
let cardIds = 0;

/** A sensitive file, a file that can run code, a terminal command, or a call that costs what its notice says (building the index, a research job): allowed one call at a time, and only by a deliberate act. */
export function isOnceOnly(step: FunctionStep): boolean {
  return (
    (step.sensitive?.length ?? 0) > 0 ||
    (step.guarded?.length ?? 0) > 0 ||
    step.command !== undefined ||
    step.notice !== undefined
  );
}

/** What the card asks, in words (its accessible name, and what the app announces). Model text: the command is shown with its hidden characters. */
export function approvalLabel(step: FunctionStep): string {
  const sensitive = step.sensitive ?? [];
  const guarded = step.guarded ?? [];
  const what = step.change
    ? ` (${changeSummary(step.change)})`
    : step.command
      ? ` to run ${visibleText(step.command.command)}`
      : '';
  const risky = guarded.length ? ` (${guarded.map((g) => `${g.path} ${guardedWriteWords(g.reason)}`).join(', ')})` : '';
  if (step.notice) return `${step.name}: ${step.notice}`;
  return sensitive.length
    ? `Allow ${step.name}${what} to ${step.change ? 'change' : 'read'} the sensitive ${sensitive.length === 1 ? 'file' : 'files'} ${sensitive.join(', ')}${risky}?`
    : `Allow ${step.name}${what}${risky}?`;
}

/** How to allow, as the card says it. */
export function approvalHint(onceOnly: boolean): string {
  return onceOnly
    ? `Click Allow Once or press ${ALLOW_SHORTCUT} to allow; Enter and Space do not.`
    : `${ALLOW_SHORTCUT} allows once.`;
}

export function approvalCard(step: FunctionStep, decide: (decision: ApprovalDecision) => void, arm: Arm): HTMLElement {
  const onceOnly = isOnceOnly(step);
  const hintId = `approval-hint-${++cardIds}`;
  const hint = el('div', {
    className: 'approval-hint',
    text: approvalHint(onceOnly),
    attrs: { id: hintId, role: 'status' },
  });
  const card = el('div', {
    className: 'approval',
    attrs: { role: 'group', 'aria-label': approvalLabel(step), 'aria-describedby': hintId, 'data-state': 'arming' },
  });
  const take = (decision: ApprovalDecision): void => {
    if (card.dataset['state'] !== 'armed') return;
    card.dataset['state'] = 'decided';
    shortcutAllows.delete(card);
    card.querySelectorAll('button').forEach((button) => (button.disabled = true));
    decide(decision);
  };
  const allowOnce = textButton('Allow Once', (event) => {
    // A click from Enter or Space (or from script) has no pointer behind it: detail counts pointer presses.
    if (onceOnly && event.detail === 0) {
      card.dataset['refused'] = 'keyboard';
      hint.textContent = `Enter and Space do not allow this: click Allow Once or press ${ALLOW_SHORTCUT}.`;
      return;
    }
    take('once');
  });
  allowOnce.setAttribute('aria-keyshortcuts', 'Control+Shift+Alt+Enter Meta+Shift+Alt+Enter');
  // No standing permission for a once-only call.
  const always = onceOnly ? [] : [textButton('Allow for This Conversation', () => take('always'), true)];
  card.append(
    allowOnce,
    ...always,
    textButton('Deny', () => take('deny'), true),
    hint,
  );
  card.querySelectorAll('button').forEach((button) => (button.disabled = true));
  shortcutAllows.set(card, () => take('once'));
  arm(() => {
    if (card.dataset['state'] !== 'arming') return;
    card.dataset['state'] = 'armed';
    card.querySelectorAll('button').forEach((button) => (button.disabled = false));
  });
  return card;
}

/** Ctrl+Shift+Alt+Enter, or Cmd+Shift+Option+Enter; a held key's repeats are not a new decision. */
export function isAllowShortcut(event: KeyboardEvent): boolean {
  return (
    event.key === 'Enter' &&
    event.altKey &&
    event.shiftKey &&
    event.ctrlKey !== event.metaKey &&
    !event.repeat &&
    !event.isComposing
  );
}

/**
 * The shortcut's act: allows the first card still waiting under `root`, once it is armed (one
 * still arming takes nothing, as a click would). True when a card was there to take the key.
 */
export function allowFirstPending(root: ParentNode): boolean {
  const card = root.querySelector('.approval[data-state="arming"], .approval[data-state="armed"]');
  if (!card) return false;
  shortcutAllows.get(card)?.();
  return true;
}
