// @codebase and @research in a message being sent: context found for it, added as chips before it
// goes. @codebase: the message (without the mention) is the query of one codebase search (one
// embedding, one rerank: codebaseSearch.ts, the search_codebase tool's own), its top chunks attached
// with their lines; the gate applies at query time, and only in a trusted workspace. @research: the
// report of the newest finished research job this conversation started (else the newest finished
// one in the Research view), capped like any attachment. When nothing can be found (no index, the
// job still running) the message is not sent: it goes back to the composer and a notice says why,
// with the way on (Build Index), instead of going without the context it asked for.
import * as vscode from 'vscode';
import type { Conversation } from '../../shared/chatModel';
import { mentions, withoutMention } from '../../shared/contextMentions';
import type { ResearchJob } from '../../core/types/account';
import type { NoticeAction } from '../../core/chat/chatNotices';
import { jobTitle } from '../../core/research/jobPresentation';
import { classifyResearchStatus } from '../../core/research/researchHelpers';
import { errorMessage } from '../../shared/errorMessage';
import { SetupRequiredError } from '../../core/failures/setupError';
import { buildIndexWithProgress, searchableIndex, searchCodebase } from '../search/codebaseSearch';
import { displayPath } from '../search/indexedFiles';
import type { ChatAttachments } from './chatAttachments';
import type { ChatGatewayServices } from './chatDeps';
import { chunkAttachment, researchAttachment } from './editorContext';

/** Chunks attached for one @codebase (the search setting's count may be higher: chips stay few). */
const MAX_CODEBASE_CHIPS = 8;

export interface MentionsHost {
  readonly attachments: ChatAttachments;
  conversation(): Conversation;
  notice(text: string, severity: 'info' | 'warning', action?: NoticeAction): void;
  /** Puts the text back in the composer (the message was not sent). */
  restore(text: string): void;
}

/** Whether `text` names @codebase or @research (anything else is sent as it is, at once). */
function hasContextMention(text: string): boolean {
  return mentions(text, 'codebase') || mentions(text, 'research');
}

export class ChatMentions {
  constructor(
    private readonly services: ChatGatewayServices | undefined,
    private readonly host: MentionsHost,
  ) {}

  /** Adds what the mentions of `text` ask for; false when the message must not go now (the host was told why). */
  async resolve(text: string): Promise<boolean> {
    if (!this.services || !hasContextMention(text)) return true;
    try {
      if (mentions(text, 'codebase') && !(await this.codebase(this.services, text))) return this.held(text);
      if (mentions(text, 'research') && !(await this.research(this.services))) return this.held(text);
      return true;
    } catch (error) {
      // Shown here (the notice); reported once so the credits display and its notice follow.
      if (!(error instanceof SetupRequiredError)) this.services.failures.report(error, true);
      this.host.notice(
        vscode.l10n.t('The context could not be found: {0}', this.services.connection.redact(errorMessage(error))),
        'warning',
      );
      return this.held(text);
    }
  }

  private held(text: string): false {
    this.host.restore(text);
    return false;
  }

  private async codebase(services: ChatGatewayServices, text: string): Promise<boolean> {
    if (!vscode.workspace.isTrusted) {
      this.host.notice(
        vscode.l10n.t(
          '@codebase searches the workspace files, which Restricted Mode keeps from the model. Trust the workspace to use it.',
        ),
        'warning',
      );
      return false;
    }
    const query = withoutMention(text, 'codebase');
    if (!query) {
      this.host.notice(
        vscode.l10n.t('Write what to find after @codebase, e.g. "@codebase where is the API key stored?"'),
        'info',
      );
      return false;
    }
    const index = await searchableIndex(services.searchIndex);
    if (!index) {
      this.host.notice(
        services.searchIndex.available
          ? vscode.l10n.t(
              '@codebase needs the semantic index of this workspace, and there is none yet. Building it embeds the workspace files: it costs credits and can take minutes.',
            )
          : vscode.l10n.t('@codebase needs an open folder to search.'),
        'warning',
        services.searchIndex.available
          ? {
              label: vscode.l10n.t('Build Index'),
              run: () =>
                buildIndexWithProgress(services.searchIndex).catch((error: unknown) => {
                  void vscode.window.showWarningMessage(services.connection.redact(errorMessage(error)));
                }),
            }
          : undefined,
      );
      return false;
    }
    const outcome = await searchCodebase(services, index, query.slice(0, 2_000), { maxResults: MAX_CODEBASE_CHIPS });
    if (outcome.results.length === 0) {
      this.host.notice(
        vscode.l10n.t('@codebase found nothing for "{0}" in the indexed files.', query.slice(0, 100)),
        'info',
      );
      return false;
    }
    this.host.attachments.addFound(
      outcome.results.map((result) =>
        chunkAttachment(
          displayPath(result.record.file),
          result.record.startLine + 1,
          result.record.endLine + 1,
          result.text,
        ),
      ),
    );
    return true;
  }

  private async research(services: ChatGatewayServices): Promise<boolean> {
    const job = this.reportJob(services);
    if (!job || classifyResearchStatus(job.status) !== 'succeeded') {
      this.host.notice(
        job
          ? vscode.l10n.t(
              'The research job "{0}" has not finished yet ({1}): send the message again once its report is ready.',
              jobTitle(job).slice(0, 80),
              job.status,
            )
          : vscode.l10n.t(
              'There is no finished research job to attach. Start one (deep_research, or the Research view) and attach it once it has finished.',
            ),
        'info',
      );
      return false;
    }
    await this.attachReport(services, job);
    return true;
  }

  /** A finished job's report as a chip (also the Research view's "Attach Report to Chat"). */
  async attachReport(services: ChatGatewayServices, job: ResearchJob): Promise<void> {
    const report = await services.reports.text(job);
    this.host.attachments.addFound([researchAttachment(jobTitle(job).slice(0, 120), report)]);
  }

  /** The newest job this conversation started (finished or not), else the newest finished one in the Research view. */
  private reportJob(services: ChatGatewayServices): ResearchJob | undefined {
    const started = this.host
      .conversation()
      .turns.flatMap((turn) =>
        turn.role === 'assistant'
          ? turn.toolSteps.flatMap((step) =>
              step.kind === 'function' && step.researchJobId ? [step.researchJobId] : [],
            )
          : [],
      );
    for (const id of started.reverse()) {
      const job = services.research.find(id);
      if (job) return job;
    }
    return services.research.jobs.find((job) => classifyResearchStatus(job.status) === 'succeeded');
  }
}
