// What to offer after a response (ChatFollowupProvider). Pure (no vscode import).
import type { UnifiedMetadata } from './participantContext';

export interface Followup {
  readonly prompt: string;
  readonly label: string;
  readonly command?: string;
}

function isMetadata(value: unknown): value is UnifiedMetadata {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { command?: unknown }).command === 'string' &&
    typeof (value as { outcome?: unknown }).outcome === 'string'
  );
}

export function followupsFor(metadata: unknown): Followup[] {
  if (!isMetadata(metadata)) return [];
  if (metadata.outcome === 'outOfCredits') return [{ prompt: '', label: 'Show my balance', command: 'quota' }];
  if (metadata.outcome !== 'done') return [];
  switch (metadata.command) {
    case '':
    case 'research':
      return [{ prompt: '', label: 'Read it aloud', command: 'speak' }];
    case 'models':
      return [{ prompt: '', label: 'Show my balance', command: 'quota' }];
    case 'quota':
      return [{ prompt: '', label: 'List the models', command: 'models' }];
    case 'image':
      return [{ prompt: '', label: 'Show my balance', command: 'quota' }];
    case 'speak':
      return [];
  }
}
