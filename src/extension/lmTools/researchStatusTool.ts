// #researchStatus: a research job's status, and its report with sources once it has one. A read:
// free, so no confirmation. The job detail comes through the client the Research view uses and is
// shown as the view's report document is (the same markdown, redacted).
import * as vscode from 'vscode';
import { classifyResearchStatus } from '../../core/research/researchHelpers';
import { GatewayError } from '../../core/errors';
import type { ResearchJob } from '../../core/types/account';
import { jobTitle, reportMarkdown } from '../../core/research/jobPresentation';
import type { LmToolDeps } from './lmToolDeps';
import { LM_TOOLS } from '../../core/lmTools/toolNames';
import { requireClient, textResult, toolFailure } from './toolSupport';
import { requiredText, ToolInputError } from '../../core/lmTools/toolInput';
import { abortOnCancel } from '../lifecycle';

const READ_TIMEOUT_MS = 30_000;

export interface ResearchStatusInput {
  readonly jobId: string;
}

export function researchStatusTool(deps: LmToolDeps): vscode.LanguageModelTool<ResearchStatusInput> {
  return {
    prepareInvocation: (options) => ({
      invocationMessage: vscode.l10n.t('Reading research job {0}', String(options.input?.jobId ?? '').slice(0, 40)),
    }),
    async invoke(options, token) {
      const controller = new AbortController();
      const cancel = abortOnCancel(controller, token);
      try {
        const id = requiredText(options.input, 'jobId', 200);
        // An id goes into a URL path: only the characters job ids are made of.
        if (!/^[\w-]+$/.test(id))
          throw new ToolInputError(
            '"jobId" must be a research job id as #deepResearch returned it (letters, digits, "-" and "_").',
          );
        const client = requireClient(deps.connection);
        let detail: ResearchJob;
        try {
          detail = await client.research.get(id, { signal: controller.signal, timeoutMs: READ_TIMEOUT_MS });
        } catch (error) {
          if (error instanceof GatewayError && error.status === 404) return textResult(notFound(deps, id));
          throw error;
        }
        const listed: ResearchJob = deps.research.find(id) ?? { id, status: detail.status };
        const phase = classifyResearchStatus(detail.status || listed.status);
        const head =
          phase === 'in_progress'
            ? `Research job ${id} ("${jobTitle({ ...listed, ...detail })}") is still in progress (status: ${detail.status || listed.status}). Jobs typically take 2 to 5 minutes: check again later.`
            : `Research job ${id} ${phase === 'succeeded' ? 'succeeded' : 'failed'}.`;
        return textResult(deps.connection.redact(`${head}\n\n${reportMarkdown(listed, detail)}`));
      } catch (error) {
        throw await toolFailure(deps, LM_TOOLS.researchStatus.reference, error, token);
      } finally {
        cancel.dispose();
      }
    },
  };
}

/** 404: an unknown id, another key's job, or a gateway without job detail (then the list may know it). */
function notFound(deps: LmToolDeps, id: string): string {
  const listed = deps.research.find(id);
  if (listed)
    return `The gateway has no detail for research job ${id}, but its job list shows it with status "${listed.status}" ("${jobTitle(listed)}"). The report cannot be read through the API; the user can open it from the Research view if the gateway offers it later.`;
  return `No research job ${id} was found for this API key. Check the id (it is the one #${LM_TOOLS.deepResearch.reference} returned).`;
}
