import * as vscode from 'vscode';
import type { CatalogCategory } from '../../core/models/catalogTree';

/**
 * A category's name as the user reads it, in the display language. CATEGORY_LABELS stays the
 * English one: command ids and the pure modules are built from it.
 */
export function categoryLabel(category: CatalogCategory): string {
  switch (category) {
    case 'chat':
      return vscode.l10n.t('Chat');
    case 'embedding':
      return vscode.l10n.t('Embedding');
    case 'rerank':
      return vscode.l10n.t('Rerank');
    case 'transcription':
      return vscode.l10n.t('Transcription');
    case 'speech':
      return vscode.l10n.t('Speech');
    case 'image':
      return vscode.l10n.t('Image');
  }
}
