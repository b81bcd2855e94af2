import type { ChatWebviewCommand, ConnectionState } from '../../shared/chatProtocol';

/** One line of the connection checklist shown before chat is available. */
interface Step {
  readonly done: boolean;
  readonly text: string;
  readonly action?: { readonly label: string; readonly command: ChatWebviewCommand };
}

function connectionSteps(state: ConnectionState): Step[] {
  return [
    state.baseUrl
      ? { done: true, text: `Gateway: ${state.baseUrl}` }
      : { done: false, text: 'Gateway address not set', action: { label: 'Open Settings', command: 'openSettings' } },
    state.keySource === 'none'
      ? { done: false, text: 'API key not set', action: { label: 'Set API Key', command: 'setApiKey' } }
      : { done: true, text: state.keySource === 'environment' ? 'API key set (environment variable)' : 'API key set' },
  ];
}

/**
 * Renders the checklist into `root` with DOM calls only (text is never parsed as HTML). Buttons
 * call `run` with the command they stand for.
 */
export function renderConnectionCard(
  root: HTMLElement,
  state: ConnectionState,
  run: (command: ChatWebviewCommand) => void,
): void {
  const doc = root.ownerDocument;
  const card = doc.createElement('section');
  card.className = 'connection-card';
  card.setAttribute('aria-label', 'Connection');
  const heading = doc.createElement('h2');
  heading.textContent = 'Unified Inference';
  card.append(heading);
  const list = doc.createElement('ul');
  for (const step of connectionSteps(state)) {
    const item = doc.createElement('li');
    item.className = step.done ? 'step done' : 'step todo';
    const icon = doc.createElement('span');
    icon.className = `codicon ${step.done ? 'codicon-pass' : 'codicon-circle-large-outline'}`;
    icon.setAttribute('aria-hidden', 'true');
    const text = doc.createElement('span');
    text.className = 'step-text';
    text.textContent = step.text;
    item.append(icon, text);
    if (step.action) {
      const button = doc.createElement('button');
      button.type = 'button';
      button.textContent = step.action.label;
      const command = step.action.command;
      button.addEventListener('click', () => run(command));
      item.append(button);
    }
    list.append(item);
  }
  card.append(list);
  const note = doc.createElement('p');
  note.className = 'note';
  note.textContent = 'Chat starts once both are set.';
  card.append(note);
  root.replaceChildren(card);
}
