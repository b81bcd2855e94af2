import type * as vscode from 'vscode';
import type { Failures } from '../errors/failures';
import type { GatewayConnection } from '../gateway/gatewayConnection';
import type { Log } from '../log';
import { ReportDocuments } from './reportDocuments';
import { registerResearchCommands } from './researchCommands';
import { ResearchJobs } from './researchJobs';
import { ResearchView } from './researchView';

export interface ResearchServices {
  readonly connection: GatewayConnection;
  readonly failures: Failures;
  readonly log: Log;
}

export interface Research {
  readonly research: ResearchJobs;
  readonly researchView: ResearchView;
  readonly reports: ReportDocuments;
}

/** Deep research: the jobs and their polling, the Research view, the report documents and the commands. */
export function registerResearch(
  context: vscode.ExtensionContext,
  { connection, failures, log }: ResearchServices,
): Research {
  const research = new ResearchJobs(connection, log);
  const reports = new ReportDocuments(connection, research);
  const researchView = new ResearchView(research, reports);
  context.subscriptions.push(
    research,
    researchView,
    reports,
    ...registerResearchCommands({ jobs: research, reports, view: researchView, connection, failures, log }),
  );
  return { research, researchView, reports };
}
