import type * as vscode from 'vscode';
import type { ChatTurn } from '../../core/participant/history';
import { PARTICIPANT_ID } from './participantContext';

type HistoryTurn = vscode.ChatRequestTurn | vscode.ChatResponseTurn;

/**
 * VS Code's history turns in the neutral shape. Read by shape rather than `instanceof`: the turn
 * classes are VS Code's, and a turn of another participant (should one appear) is skipped.
 */
export function chatTurns(history: readonly HistoryTurn[]): ChatTurn[] {
  return history.flatMap((turn): ChatTurn[] => {
    if (turn.participant && turn.participant !== PARTICIPANT_ID) return [];
    const command = turn.command ? { command: turn.command } : {};
    if ('prompt' in turn) return [{ kind: 'request', prompt: turn.prompt, ...command }];
    // Markdown parts hold a MarkdownString (`value.value`); anchors, buttons and trees do not.
    const markdown = turn.response
      .map((part) => (part as { value?: { value?: unknown } }).value?.value)
      .filter((value): value is string => typeof value === 'string')
      .join('');
    return [{ kind: 'response', markdown, ...command }];
  });
}
