// The small input of inline edit: a QuickPick whose items are the recent instructions (arrow keys
// recall one, Enter on it reuses it; typing something new and Enter sends what was typed). A
// QuickPick rather than an InputBox because an InputBox cannot list history. The history lives in
// globalState, bounded and redacted (instructionHistory.ts): it follows the user across workspaces,
// as a shell's history does.
import * as vscode from 'vscode';
import { parseHistory, rememberInstruction } from '../../core/inlineEdit/instructionHistory';

const HISTORY_KEY = 'unifiedInference.inlineEdit.history';

export interface InstructionInputOptions {
  /** A review is open for this edit: the instruction refines its proposal. */
  readonly refining: boolean;
  readonly model: string;
  readonly file: string;
}

export class InstructionHistory {
  constructor(
    private readonly state: vscode.Memento,
    /** Removes the API key (and any known secret) from what is remembered. */
    private readonly redact: (text: string) => string,
  ) {}

  get items(): string[] {
    return parseHistory(this.state.get<unknown>(HISTORY_KEY));
  }

  async remember(instruction: string): Promise<void> {
    await this.state.update(HISTORY_KEY, rememberInstruction(this.items, this.redact(instruction)));
  }
}

/** Asks for the instruction; undefined when the user dismissed the input. */
export function askInstruction(
  history: InstructionHistory,
  options: InstructionInputOptions,
): Promise<string | undefined> {
  const pick = vscode.window.createQuickPick<vscode.QuickPickItem>();
  pick.title = options.refining
    ? vscode.l10n.t('Refine the Proposed Edit of {0}', options.file)
    : vscode.l10n.t('Edit with Unified Inference: {0}', options.file);
  pick.placeholder = options.refining
    ? vscode.l10n.t(
        'What should change in the proposal? ({0} gets the original code, its proposal and this)',
        options.model,
      )
    : vscode.l10n.t(
        'Describe the change (sent to {0} with the selection and the code around it); ↑↓ recall recent instructions',
        options.model,
      );
  pick.ignoreFocusOut = false;
  pick.matchOnDescription = false;
  const recent = history.items.map((label) => ({ label, description: vscode.l10n.t('recent') }));
  pick.items = recent;
  // Nothing chosen until the user moves to a recent one: Enter sends what was typed.
  pick.activeItems = [];
  return new Promise((resolve) => {
    let settled = false;
    const finish = (value: string | undefined): void => {
      if (settled) return;
      settled = true;
      resolve(value);
      pick.dispose();
    };
    pick.onDidChangeValue((value) => {
      // What is typed is an item of its own at the top, so Enter takes it even when a recent one matches.
      const typed = value.trim();
      pick.items = typed
        ? [
            { label: typed, description: options.refining ? vscode.l10n.t('refine') : vscode.l10n.t('send') },
            ...recent.filter((item) => item.label !== typed),
          ]
        : recent;
    });
    pick.onDidAccept(() => {
      const chosen = pick.selectedItems[0] ?? pick.activeItems[0];
      const text = (chosen?.label ?? pick.value).trim();
      finish(text || undefined);
    });
    pick.onDidHide(() => finish(undefined));
    pick.show();
  });
}
