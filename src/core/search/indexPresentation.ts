// What indexing for semantic search says where the user looks: the status bar item while it runs
// (files done of the files to read, a click cancels) and after it (the count indexed, a click
// searches), the Search Results view's description, and the notification's lines. Texts go through
// the Translator it is given (vscode.l10n in the extension; English by default).
import { ENGLISH, type Translator } from '../../shared/translator';
import type { IndexProgress, UpdateReport } from './semanticIndex';

/** A run of the Index command as the status bar item shows it. */
export type IndexActivity =
  | { readonly kind: 'indexing'; readonly progress?: IndexProgress }
  | {
      readonly kind: 'indexed';
      readonly files: number;
      readonly chunks: number;
      readonly report: Pick<UpdateReport, 'embeddedFiles' | 'removedFiles' | 'cancelled'>;
    }
  | { readonly kind: 'failed'; readonly reason: string };

export interface IndexStatusLook {
  /** With a codicon first, e.g. "$(sync~spin) Indexing 2/5 files". */
  readonly text: string;
  /** A whole sentence, with what a click does; also what a screen reader says. */
  readonly tooltip: string;
  /** What a click does: stop the run, search the index, or index again. */
  readonly action: 'cancel' | 'search' | 'index';
}

/** "4 files, 4 chunks indexed (4 embedded now, 0 removed).": the notification's and the tooltip's summary. */
export function indexSummary(run: Extract<IndexActivity, { kind: 'indexed' }>, l10n: Translator = ENGLISH): string {
  return l10n.t(
    '{0} files, {1} chunks indexed ({2} embedded now, {3} removed).',
    run.files,
    run.chunks,
    run.report.embeddedFiles.length,
    run.report.removedFiles.length,
  );
}

/** The notification's progress line: "2 of 5 files, 7 chunks". */
export function progressMessage(progress: IndexProgress, l10n: Translator = ENGLISH): string {
  return l10n.t('{0} of {1} files, {2} chunks', progress.filesDone, progress.filesTotal, progress.chunksEmbedded);
}

/** How far a run is, 0 to 1 (a run with nothing to read is done). */
export function progressFraction(progress: IndexProgress): number {
  return progress.filesTotal ? progress.filesDone / progress.filesTotal : 1;
}

/** The Search Results view's description: how much the index holds ("12 files indexed"). */
export function indexedDescription(files: number, l10n: Translator = ENGLISH): string {
  return files === 1 ? l10n.t('1 file indexed') : l10n.t('{0} files indexed', files);
}

export function indexStatusLook(activity: IndexActivity, l10n: Translator = ENGLISH): IndexStatusLook {
  if (activity.kind === 'indexing') {
    const { progress } = activity;
    // Before the first batch the files to read are known; before the workspace is listed, nothing is.
    if (!progress)
      return {
        text: l10n.t('$(sync~spin) Indexing...'),
        tooltip: l10n.t('Semantic search: listing the workspace files to index. Click to cancel.'),
        action: 'cancel',
      };
    return {
      text: l10n.t('$(sync~spin) Indexing {0}/{1} files', progress.filesDone, progress.filesTotal),
      tooltip: l10n.t(
        'Semantic search: indexing the workspace, {0} of {1} files read, {2} chunks embedded. Click to cancel.',
        progress.filesDone,
        progress.filesTotal,
        progress.chunksEmbedded,
      ),
      action: 'cancel',
    };
  }
  if (activity.kind === 'failed')
    return {
      text: l10n.t('$(error) Indexing failed'),
      tooltip: l10n.t(
        'Semantic search: indexing failed: {0} What was embedded before is kept. Click to index again.',
        /[.!?]$/.test(activity.reason) ? activity.reason : `${activity.reason}.`,
      ),
      action: 'index',
    };
  const summary = indexSummary(activity, l10n);
  if (activity.report.cancelled)
    return {
      text: l10n.t('$(circle-slash) Indexing cancelled'),
      tooltip: l10n.t('Semantic search: indexing cancelled: {0} Click to index again.', summary),
      action: 'index',
    };
  return {
    text:
      activity.files === 1 ? l10n.t('$(check) Indexed 1 file') : l10n.t('$(check) Indexed {0} files', activity.files),
    tooltip: l10n.t('Semantic search: {0} Click to search.', summary),
    action: 'search',
  };
}
