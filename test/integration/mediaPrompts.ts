// Answers the media commands' prompts inside the extension host: quick picks and input boxes are
// answered by their title, the save dialog and the "Save as .srt" offer by fixed answers, and
// withProgress gets a cancellation token the test controls (a test cannot click Cancel).
import * as vscode from 'vscode';
import { replace } from './extensionHost';

export interface Answers {
  /** Quick pick title (or its end after ': ') -> the label to pick; a model pick takes its first item (the default). */
  readonly picks?: Readonly<Record<string, string>>;
  /** Quick pick title ends whose first item is taken, as Enter takes it (the default a pick offers). */
  readonly first?: readonly string[];
  /** Input box title end -> the text typed; `true` keeps the box's own value (Enter). */
  readonly inputs?: Readonly<Record<string, string | true>>;
  readonly saveTo?: vscode.Uri;
  /** The notification button to press, by its start (e.g. 'Save as'; also in warnings). */
  readonly press?: string;
}

export interface Prompted {
  readonly titles: string[];
  /** Each quick pick's items (title end -> labels and descriptions, in the order offered). */
  readonly offered: Record<string, { label: string; description?: string }[]>;
  /** Each input box's value as it opened (title end -> value). */
  readonly values: Record<string, string | undefined>;
  readonly errors: string[];
  /** The buttons each error notification offered (same order as `errors`). */
  readonly errorButtons: string[][];
  readonly infos: string[];
  readonly warnings: string[];
  /** Each input box's validateInput answer for the texts in `probe`. */
  readonly validation: Record<string, (string | undefined)[]>;
  cancel(): void;
  /** Resolves when a withProgress task started. */
  readonly started: Promise<void>;
  restore(): void;
}

export function answerPrompts(answers: Answers, probe: Readonly<Record<string, readonly string[]>> = {}): Prompted {
  const titles: string[] = [];
  const offered: Prompted['offered'] = {};
  const values: Prompted['values'] = {};
  const errors: string[] = [];
  const errorButtons: string[][] = [];
  const infos: string[] = [];
  const warnings: string[] = [];
  const validation: Record<string, (string | undefined)[]> = {};
  const source = new vscode.CancellationTokenSource();
  let started!: () => void;
  const startedPromise = new Promise<void>((resolve) => (started = resolve));
  const key = (title: string | undefined): string => (title ?? '').split(': ').pop() ?? '';

  const restores = [
    replace(vscode.window, 'showQuickPick', (async (
      items: readonly vscode.QuickPickItem[] | Thenable<readonly vscode.QuickPickItem[]>,
      options?: vscode.QuickPickOptions,
    ) => {
      titles.push(options?.title ?? '');
      const list = await items;
      offered[key(options?.title)] = list.map(({ label, description }) => ({
        label,
        ...(description === undefined ? {} : { description }),
      }));
      if (key(options?.title) === 'model' || answers.first?.includes(key(options?.title))) return list[0];
      const wanted = answers.picks?.[key(options?.title)];
      if (wanted === undefined) return undefined;
      const item = list.find((candidate) => candidate.label === wanted);
      if (!item) throw new Error(`No item "${wanted}" in "${options?.title}": ${list.map((i) => i.label).join(', ')}`);
      return item;
    }) as unknown as typeof vscode.window.showQuickPick),
    replace(vscode.window, 'showInputBox', async (options?: vscode.InputBoxOptions) => {
      titles.push(options?.title ?? '');
      const name = key(options?.title);
      values[name] = options?.value;
      for (const text of probe[name] ?? [])
        (validation[name] ??= []).push((await options?.validateInput?.(text)) as string | undefined);
      const answer = answers.inputs?.[name];
      return answer === true ? options?.value : answer;
    }),
    replace(vscode.window, 'showSaveDialog', async () => answers.saveTo),
    replace(vscode.window, 'showErrorMessage', async (message: string, ...rest: unknown[]) => {
      errors.push(message);
      errorButtons.push(rest.filter((button): button is string => typeof button === 'string'));
      return undefined;
    }),
    replace(vscode.window, 'showInformationMessage', async (message: string, ...buttons: unknown[]) => {
      infos.push(message);
      return buttons.find(
        (button): button is string => typeof button === 'string' && !!answers.press && button.startsWith(answers.press),
      );
    }),
    replace(vscode.window, 'showWarningMessage', async (message: string, ...rest: unknown[]) => {
      warnings.push(message);
      return rest.find(
        (button): button is string => typeof button === 'string' && !!answers.press && button.startsWith(answers.press),
      );
    }),
    replace(
      vscode.window,
      'withProgress',
      <R>(
        _options: vscode.ProgressOptions,
        task: (
          progress: vscode.Progress<{ message?: string; increment?: number }>,
          token: vscode.CancellationToken,
        ) => Thenable<R>,
      ) => {
        started();
        return task({ report: () => undefined }, source.token);
      },
    ),
  ];
  return {
    titles,
    offered,
    values,
    errors,
    errorButtons,
    infos,
    warnings,
    validation,
    started: startedPromise,
    cancel: () => source.cancel(),
    restore: () => restores.reverse().forEach((restore) => restore()),
  };
}
