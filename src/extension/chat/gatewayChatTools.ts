// The chat's tools that spend credits on the gateway for the model: search_codebase (the semantic
// index and rerank, the same search #semanticSearch runs: codebaseSearch.ts) and deep_research (a
// job in the Research view's own list, as #deepResearch starts it). Offered in trusted workspaces
// only, with the workspace tools (chatTools.ts). A search with an index asks like a workspace
// tool; a search that must build the index first, and every research job, asks each time with the
// cost on the card (ToolReview.notice), and a "no" reaches the model as a tool error it can read.
import * as vscode from 'vscode';
import { isAbortError } from '../../core/errors';
import { describeInWords } from '../../core/failures/errorWords';
import { SetupRequiredError } from '../../core/failures/setupError';
import { indexOfferText } from '../../core/search/indexEstimate';
import { jobTitle, researchOfferText } from '../../core/research/jobPresentation';
import { resultsText } from '../../core/lmTools/toolTexts';
import type { GatewayTool } from '../../core/answers/gatewayAnswer';
import type { ToolCallRequest, ToolOutcome, ToolReview } from '../../core/answers/toolHost';
import type { ChatGatewayServices } from './chatDeps';
import { optionalInteger, requiredText, ToolInputError } from '../../core/lmTools/toolInput';
import {
  buildIndexWithProgress,
  indexBuildEstimate,
  MAX_RESULTS,
  searchableIndex,
  searchCodebase,
} from '../search/codebaseSearch';
import { displayPath } from '../search/indexedFiles';

const SEARCH_CODEBASE = 'search_codebase';
const DEEP_RESEARCH = 'deep_research';
const MAX_QUERY = 2_000;
const MAX_TOPIC = 4_000;

export const GATEWAY_CHAT_TOOLS: readonly GatewayTool[] = [
  {
    name: SEARCH_CODEBASE,
    description: `Search the open workspace by meaning (semantic index and rerank): returns the most relevant chunks as path:startLine-endLine (1-based, inclusive) with a score and their text. Costs one embedding and one rerank request per query. Excluded, .gitignored and sensitive files are never returned. Without an index the user is asked whether to build it first.`,
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'What to find, in words (e.g. "where the API key is redacted")' },
        maxResults: { type: 'integer', description: `How many results at most (1 to ${MAX_RESULTS})` },
      },
      required: ['query'],
    },
  },
  {
    name: DEEP_RESEARCH,
    description:
      'Start a deep research job on the gateway about a topic (after the user confirms: it costs credits and takes minutes). Returns the job id at once; the report is not available in this reply. The user can attach the finished report to a later message with @research.',
    inputSchema: {
      type: 'object',
      properties: { topic: { type: 'string', description: 'The research question or topic' } },
      required: ['topic'],
    },
  },
];

export function isGatewayChatTool(name: string): boolean {
  return name === SEARCH_CODEBASE || name === DEEP_RESEARCH;
}

/** What review hands run: whether the index is built first. */
interface SearchPlan {
  readonly build: boolean;
}

export class GatewayChatTools {
  constructor(private readonly deps: ChatGatewayServices) {}

  /** Checks the input and says what the call costs; never throws (a problem is a refusal the model reads). */
  async review(call: ToolCallRequest, signal: AbortSignal): Promise<ToolReview> {
    try {
      if (call.name === DEEP_RESEARCH) return this.reviewResearch(call);
      requiredText(call.input, 'query', MAX_QUERY);
      optionalInteger(call.input, 'maxResults', 1, MAX_RESULTS);
      if (!this.deps.searchIndex.available)
        return { sensitivePaths: [], refusal: 'No folder is open, so there is no workspace to search.' };
      if (await searchableIndex(this.deps.searchIndex)) return { sensitivePaths: [], plan: { build: false } };
      const estimate = await indexBuildEstimate(this.deps, signal);
      if (estimate.files === 0)
        return {
          sensitivePaths: [],
          refusal:
            'The workspace has no files the semantic index admits (see the unifiedInference.search.include setting), so there is nothing to search by meaning. Use search_files.',
        };
      const plan: SearchPlan = { build: true };
      return {
        sensitivePaths: [],
        notice: indexOfferText(estimate, vscode.l10n),
        askEveryTime: true,
        plan,
        deniedResult:
          'The user chose not to build the semantic index, so the workspace cannot be searched by meaning now. Use search_files or read_file instead, and do not call search_codebase again in this reply.',
      };
    } catch (error) {
      if (isAbortError(error)) throw error;
      return { sensitivePaths: [], refusal: await this.words(error) };
    }
  }

  private reviewResearch(call: ToolCallRequest): ToolReview {
    const topic = requiredText(call.input, 'topic', MAX_TOPIC);
    return {
      sensitivePaths: [],
      askEveryTime: true,
      notice: researchOfferText(topic, vscode.l10n),
      deniedResult:
        'The user chose not to start the research job. Answer from what you know, and do not call deep_research again in this reply.',
    };
  }

  async run(call: ToolCallRequest, signal: AbortSignal, review: ToolReview): Promise<ToolOutcome> {
    try {
      return call.name === DEEP_RESEARCH ? await this.startResearch(call) : await this.search(call, signal, review);
    } catch (error) {
      if (isAbortError(error) || signal.aborted) throw error;
      return { content: await this.words(error), isError: true };
    }
  }

  private async search(call: ToolCallRequest, signal: AbortSignal, review: ToolReview): Promise<ToolOutcome> {
    const query = requiredText(call.input, 'query', MAX_QUERY);
    const maxResults = optionalInteger(call.input, 'maxResults', 1, MAX_RESULTS);
    const plan = review.plan as SearchPlan | undefined;
    const index = plan?.build
      ? await buildIndexWithProgress(this.deps.searchIndex, { signal })
      : await searchableIndex(this.deps.searchIndex);
    if (!index)
      return { content: 'The semantic index was cleared before the search ran; call it again.', isError: true };
    const outcome = await searchCodebase(this.deps, index, query, { signal, ...(maxResults ? { maxResults } : {}) });
    return {
      content: this.deps.connection.redact(resultsText(query, outcome.results, outcome.rerankProblem, displayPath)),
    };
  }

  private async startResearch(call: ToolCallRequest): Promise<ToolOutcome> {
    const topic = requiredText(call.input, 'topic', MAX_TOPIC);
    const job = await this.deps.research.start(topic);
    return {
      content: `Started deep research job ${job.id} on "${jobTitle(job)}" (status: ${job.status}). It typically takes 2 to 5 minutes, so its report is not available in this reply. Tell the user it runs in the Research view; once it has finished they can attach the report to a later message with @research.`,
      researchJobId: job.id,
    };
  }

  /** A failure in words the model can act on; reported once (the credits display follows), redacted. */
  private async words(error: unknown): Promise<string> {
    if (error instanceof ToolInputError) return error.message;
    // A setup problem is not a failed request: nothing to report to the connection.
    if (!(error instanceof SetupRequiredError)) this.deps.failures.report(error);
    return this.deps.connection.redact(describeInWords(await this.deps.failures.describe(error)));
  }
}
