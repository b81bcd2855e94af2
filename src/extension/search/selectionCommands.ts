// "Rerank Lines..." and "Copy Embedding of Selection": the rerank and embeddings endpoints on the
// editor's selection, without any index.
import * as vscode from 'vscode';
import { plainRecord, str } from '../../core/parse/json';
import { reorderLines } from '../../core/search/rankResults';
import type { Log } from '../log';
import { chooseSearchModel, gatewayEmbedder, gatewayRerank, type SearchModelsDeps } from './gatewayModels';

type RerankMode = 'replace' | 'show';

export interface RerankLinesArgs {
  readonly query?: string;
  readonly mode?: RerankMode;
}

/** A caller's arguments; none from a menu, which hands over the editor's Uri (whose `query` is ''). */
export function rerankLinesArgs(value: unknown): RerankLinesArgs | undefined {
  const own = plainRecord(value);
  if (!own) return undefined;
  return { query: str(own.query), mode: own.mode === 'replace' || own.mode === 'show' ? own.mode : undefined };
}

async function fail(deps: SearchModelsDeps, title: string, error: unknown): Promise<undefined> {
  await deps.failures.show(error, { title });
  return undefined;
}

/** The whole lines the selection touches (a selection ending at column 0 does not take that line). */
function selectedLines(editor: vscode.TextEditor): vscode.Range {
  const { start, end } = editor.selection;
  const last = end.line > start.line && end.character === 0 ? end.line - 1 : end.line;
  return new vscode.Range(start.line, 0, last, editor.document.lineAt(last).text.length);
}

/** Reranks the selected lines against a query; returns the lines in their new order. */
export async function rerankLinesCommand(
  deps: SearchModelsDeps & { log: Log },
  args?: RerankLinesArgs,
): Promise<string[] | undefined> {
  if (!deps.failures.requireSetup(vscode.l10n.t('Rerank Lines'), () => rerankLinesCommand(deps, args)))
    return undefined;
  const editor = vscode.window.activeTextEditor;
  if (!editor)
    return void vscode.window.showInformationMessage(vscode.l10n.t('Open a file and select the lines to rerank.'));
  const range = selectedLines(editor);
  const lines = editor.document.getText(range).split(/\r\n|\n/);
  if (lines.filter((l) => l.trim()).length < 2)
    return void vscode.window.showInformationMessage(vscode.l10n.t('Select at least two non-empty lines to rerank.'));
  const query = (
    args?.query ??
    (await vscode.window.showInputBox({
      title: vscode.l10n.t('Rerank Lines'),
      prompt: vscode.l10n.t('Order the selected lines by relevance to...'),
      ignoreFocusOut: true,
    }))
  )?.trim();
  if (!query) return undefined;
  const mode =
    args?.mode ??
    (
      await vscode.window.showQuickPick(
        [
          {
            label: vscode.l10n.t('Replace Selection'),
            detail: vscode.l10n.t('Reorder the lines in the editor, most relevant first'),
            mode: 'replace' as const,
          },
          {
            label: vscode.l10n.t('Show Order'),
            detail: vscode.l10n.t('List the lines by relevance, leave the editor as it is'),
            mode: 'show' as const,
          },
        ],
        { title: vscode.l10n.t('Rerank Lines') },
      )
    )?.mode;
  if (!mode) return undefined;
  let ordered: ReturnType<typeof reorderLines>;
  try {
    const model = await chooseSearchModel(deps, 'rerank');
    // Blank lines carry no meaning to rank; they go to the end, in their places' order.
    const documents = lines.map((l) => l.trim() || ' ');
    ordered = reorderLines(
      lines,
      await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Reranking lines...') },
        () => gatewayRerank(deps, model, query, documents, documents.length),
      ),
    );
  } catch (error) {
    return fail(deps, vscode.l10n.t('Rerank failed'), error);
  }
  const texts = ordered.map((o) => o.line);
  if (mode === 'replace') {
    const eol = editor.document.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n';
    await editor.edit((edit) => edit.replace(range, texts.join(eol)));
  } else {
    void vscode.window
      .showQuickPick(
        ordered.map((o, rank) => {
          const line = range.start.line + o.index + 1;
          return {
            label: `${rank + 1}. ${o.line.trim() || vscode.l10n.t('(blank)')}`,
            description:
              o.score === undefined
                ? vscode.l10n.t('line {0}', line)
                : vscode.l10n.t('line {0} · {1}', line, o.score.toFixed(3)),
            line: range.start.line + o.index,
          };
        }),
        { title: vscode.l10n.t('Lines by relevance to “{0}”', query) },
      )
      .then(
        (picked) =>
          picked &&
          editor.revealRange(new vscode.Range(picked.line, 0, picked.line, 0), vscode.TextEditorRevealType.InCenter),
      );
  }
  return texts;
}

export interface CopyEmbeddingArgs {
  /** null: the model's own size (skips the input box). */
  readonly dimensions?: number | null;
}

/** A caller's arguments; none from a menu (see rerankLinesArgs). */
export function copyEmbeddingArgs(value: unknown): CopyEmbeddingArgs | undefined {
  const dimensions = plainRecord(value)?.dimensions;
  return typeof dimensions === 'number' || dimensions === null ? { dimensions } : undefined;
}

function parseDimensions(text: string): number | undefined | 'invalid' {
  if (!text.trim()) return undefined;
  const value = Number(text.trim());
  return Number.isInteger(value) && value >= 1 && value <= 100_000 ? value : 'invalid';
}

/** Embeds the selection and copies the vector as a JSON array. */
export async function copyEmbeddingCommand(
  deps: SearchModelsDeps & { log: Log },
  args?: CopyEmbeddingArgs,
): Promise<number[] | undefined> {
  if (!deps.failures.requireSetup(vscode.l10n.t('Copy Embedding of Selection'), () => copyEmbeddingCommand(deps, args)))
    return undefined;
  const editor = vscode.window.activeTextEditor;
  const text = editor?.document.getText(editor.selection) ?? '';
  if (!text.trim()) return void vscode.window.showInformationMessage(vscode.l10n.t('Select the text to embed first.'));
  let dimensions: number | undefined;
  if (args && 'dimensions' in args) dimensions = args.dimensions ?? undefined;
  else {
    const answer = await vscode.window.showInputBox({
      title: vscode.l10n.t('Copy Embedding of Selection'),
      prompt: vscode.l10n.t("Dimensions (empty for the model's own; only some models accept it)"),
      validateInput: (v) =>
        parseDimensions(v) === 'invalid' ? vscode.l10n.t('A whole number of at least 1, or empty') : undefined,
    });
    if (answer === undefined) return undefined;
    const parsed = parseDimensions(answer);
    dimensions = parsed === 'invalid' ? undefined : parsed;
  }
  try {
    const model = await chooseSearchModel(deps, 'embedding');
    const [vector] = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Embedding selection...') },
      () => gatewayEmbedder(deps, model, dimensions)([text]),
    );
    if (!vector) throw new Error(vscode.l10n.t('The gateway returned no embedding.'));
    const numbers = Array.from(vector);
    await vscode.env.clipboard.writeText(JSON.stringify(numbers));
    void vscode.window.showInformationMessage(
      vscode.l10n.t('Copied an embedding of {0} dimensions ({1}).', numbers.length, model),
    );
    return numbers;
  } catch (error) {
    return fail(deps, vscode.l10n.t('Embedding failed'), error);
  }
}
