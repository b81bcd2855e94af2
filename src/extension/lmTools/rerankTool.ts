// #rerank: orders the passages a model gives by relevance to a query, with the default rerank
// model (the same call and bookkeeping as "Rerank Lines..."). One cheap request; asks first
// because it is charged.
import * as vscode from 'vscode';
import { chooseSearchModel, gatewayRerank } from '../search/gatewayModels';
import type { LmToolDeps } from './lmToolDeps';
import { LM_TOOLS } from '../../core/lmTools/toolNames';
import { rankingText } from '../../core/lmTools/toolTexts';
import { balanceNote, requireClient, textResult, toolFailure } from './toolSupport';
import { optionalInteger, requiredText, requiredTexts } from '../../core/lmTools/toolInput';
import { abortOnCancel } from '../lifecycle';

const MAX_PASSAGES = 200;
const MAX_PASSAGE_CHARS = 20_000;
const MAX_QUERY_CHARS = 2_000;

export interface RerankInput {
  readonly query: string;
  readonly passages: string[];
  readonly topN?: number;
}

export function rerankTool(deps: LmToolDeps): vscode.LanguageModelTool<RerankInput> {
  return {
    prepareInvocation(options) {
      const count = Array.isArray(options.input?.passages) ? options.input.passages.length : 0;
      return {
        invocationMessage: vscode.l10n.t('Reranking {0} passages', count),
        confirmationMessages: {
          title: vscode.l10n.t('Rerank passages with the gateway?'),
          message:
            count === 1
              ? vscode.l10n.t(
                  'One rerank request for {0} passage: charged by the tokens sent (usually a fraction of a cent), takes seconds.{1}',
                  count,
                  balanceNote(deps.credits),
                )
              : vscode.l10n.t(
                  'One rerank request for {0} passages: charged by the tokens sent (usually a fraction of a cent), takes seconds.{1}',
                  count,
                  balanceNote(deps.credits),
                ),
        },
      };
    },
    async invoke(options, token) {
      const controller = new AbortController();
      const cancel = abortOnCancel(controller, token);
      try {
        const query = requiredText(options.input, 'query', MAX_QUERY_CHARS);
        const passages = requiredTexts(options.input, 'passages', MAX_PASSAGES, MAX_PASSAGE_CHARS);
        const topN = optionalInteger(options.input, 'topN', 1, MAX_PASSAGES) ?? passages.length;
        requireClient(deps.connection);
        const model = await chooseSearchModel(deps, 'rerank');
        const order = await gatewayRerank(deps, model, query, passages, topN, controller.signal);
        return textResult(deps.connection.redact(rankingText(query, passages, order, model)));
      } catch (error) {
        throw await toolFailure(deps, LM_TOOLS.rerank.reference, error, token);
      } finally {
        cancel.dispose();
      }
    },
  };
}
