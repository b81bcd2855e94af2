// Small DOM builders: text always goes in as textContent, never parsed as HTML (the only HTML
// the chat shows is the sanitized markdown of the markdown module).

type Child = Node | string | undefined | false;

export interface ElementOptions {
  readonly className?: string;
  readonly text?: string;
  readonly attrs?: Readonly<Record<string, string>>;
}

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  options: ElementOptions = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (options.className) node.className = options.className;
  if (options.text !== undefined) node.textContent = options.text;
  for (const [name, value] of Object.entries(options.attrs ?? {})) node.setAttribute(name, value);
  for (const child of children) if (child !== undefined && child !== false) node.append(child);
  return node;
}

export function icon(name: string): HTMLSpanElement {
  return el('span', { className: `codicon codicon-${name}`, attrs: { 'aria-hidden': 'true' } });
}

/** A button with a codicon and an accessible name (the label is shown when `showLabel`). */
export function iconButton(
  codicon: string,
  label: string,
  onClick: () => void,
  options: { showLabel?: boolean; className?: string } = {},
): HTMLButtonElement {
  const button = el(
    'button',
    {
      className: `icon-button ${options.className ?? ''}`.trim(),
      attrs: { type: 'button', 'aria-label': label, title: label },
    },
    icon(codicon),
    options.showLabel ? el('span', { text: label }) : undefined,
  );
  button.addEventListener('click', (event) => {
    event.stopPropagation();
    onClick();
  });
  return button;
}

/** `onClick` gets the event: a click's `detail` tells a pointer press (1+) from Enter or Space (0). */
export function textButton(label: string, onClick: (event: MouseEvent) => void, secondary = false): HTMLButtonElement {
  const button = el('button', { className: secondary ? 'secondary' : '', text: label, attrs: { type: 'button' } });
  button.addEventListener('click', onClick);
  return button;
}

// Formatters are costly to build (about 0.3 ms each): a 500-message conversation formats 250 times.
const timeFormat = new Intl.DateTimeFormat([], { hour: '2-digit', minute: '2-digit' });
const dateFormat = new Intl.DateTimeFormat([], { month: 'short', day: 'numeric', year: 'numeric' });

export function formatTime(ms: number, now = Date.now()): string {
  const date = new Date(ms);
  const sameDay = new Date(now).toDateString() === date.toDateString();
  return sameDay ? timeFormat.format(date) : dateFormat.format(date);
}
