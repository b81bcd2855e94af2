// What vscode.l10n offers, as a pure module can take it: the extension passes vscode.l10n, a
// unit test (or anything without VS Code) the English default. Calls read `l10n.t('...')`, so
// scripts/l10nBundle.mjs collects their messages with the others.

export interface Translator {
  t(message: string, ...args: (string | number | boolean)[]): string;
}

/** The messages as written: {0}, {1}... replaced by the values, as vscode.l10n.t does with no bundle. */
export const ENGLISH: Translator = {
  t: (message, ...args) =>
    message.replace(/\{(\d+)\}/g, (placeholder, index: string) =>
      Number(index) < args.length ? String(args[Number(index)]) : placeholder,
    ),
};
