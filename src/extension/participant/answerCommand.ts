import type * as vscode from 'vscode';
import { readSettings } from '../config';
import { streamGatewayAnswer } from '../../core/answers/gatewayAnswer';
import { modelFor, noModelText } from '../models/catalogModels';
import { historyToMessages } from '../../core/participant/history';
import { reportCommandError, requireClient } from './participantErrors';
import { result, type CommandContext } from './participantContext';
import { inlineCode } from '../../shared/markdownText';
import { SourceList, sourcesMarkdown } from '../../shared/replySources';

/** A plain prompt: the default chat model answers, with this participant's conversation so far. */
export async function answerPrompt(ctx: CommandContext): Promise<vscode.ChatResult> {
  if (!ctx.prompt.trim()) {
    ctx.stream.markdown('Ask a question, or use `/research`, `/image`, `/speak`, `/models` or `/quota`.');
    return result('', 'usage');
  }
  const client = requireClient(ctx);
  if (!client) return result('', 'setup');
  const model = await modelFor(ctx.deps.catalog, 'chat');
  if (!model) {
    ctx.stream.markdown(noModelText(ctx.deps.catalog, 'chat'));
    ctx.stream.button({ command: 'unifiedInference.pickDefaultChatModel', title: 'Pick a Default Chat Model' });
    return result('', 'error');
  }
  let answered = false;
  // The pages the answer cites, listed under it once it is whole (as the chat panel does).
  const sources = new SourceList();
  try {
    await streamGatewayAnswer(
      client,
      {
        model: model.id,
        messages: historyToMessages(ctx.turns, ctx.prompt),
        api: readSettings().chatApi,
        ...(model.provider ? { provider: model.provider } : {}),
      },
      {
        text: (delta) => {
          answered = true;
          ctx.stream.markdown(delta);
        },
        sources: (found) => found.forEach((source) => sources.add(source.url, source.title)),
      },
      ctx.signal,
    );
    if (!answered) ctx.stream.markdown(`${inlineCode(model.id)} gave an empty answer.`);
    const list = sourcesMarkdown(sources.list());
    if (list) ctx.stream.markdown(`\n\n${list}\n`);
    return result('', 'done');
  } catch (error) {
    return reportCommandError(ctx, '', error);
  } finally {
    ctx.deps.connection.reportModelUse();
  }
}
