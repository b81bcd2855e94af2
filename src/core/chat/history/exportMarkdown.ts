// A conversation as a markdown document a person can read (and keep) outside the extension.
// Pure: dates are printed in UTC so the same conversation always exports to the same text.
import type {
  AssistantTurn,
  Attachment,
  ChatParameters,
  Conversation,
  ImageRef,
  ToolStep,
  UserTurn,
} from '../../../shared/chatModel';
import { imageFileName } from '../../../shared/chatModel';
import { collapseWhitespace } from './conversationTitle';
import { sourcesMarkdown } from '../../../shared/replySources';
import { escapeMarkdown } from '../../../shared/markdownText';

const SHORT_RESULT = 200;
const SHORT_ARGUMENTS = 300;

const ERROR_LABELS: Readonly<Record<string, string>> = {
  auth: 'API key rejected',
  outOfCredits: 'out of credits',
  rateLimited: 'rate limited',
  unreachable: 'gateway unreachable',
  timeout: 'timed out',
  interrupted: 'interrupted',
  server: 'server error',
  invalid: 'invalid request',
  noModel: 'no model',
  setup: 'setup needed',
  contextLength: "too long for the model's context",
  other: 'error',
};

/**
 * Where an exported image is, relative to the markdown file (the images are written next to it,
 * in a folder named after it: plain files any markdown viewer shows, and a document that stays
 * small and diffable), or undefined when it could not be exported.
 */
export type ExportedImageLink = (ref: ImageRef) => string | undefined;

/** The folder beside an export `<name>.md` that holds its images: `<name>.images`. */
export function exportImageFolder(markdownFileName: string): string {
  return `${markdownFileName.replace(/\.md$/i, '')}.images`;
}

/**
 * The relative link of an image in that folder (each path segment URL-encoded, so spaces and
 * brackets cannot break the link; encodeURIComponent leaves parentheses, which would end the
 * link early, so they are encoded too).
 */
export function exportedImagePath(folderName: string, ref: ImageRef): string {
  const folder = encodeURIComponent(folderName).replace(/[()]/g, (c) => (c === '(' ? '%28' : '%29'));
  return `${folder}/${imageFileName(ref)}`;
}

export function exportMarkdown(conversation: Conversation, imageLink: ExportedImageLink = () => undefined): string {
  const blocks: string[] = [`# ${collapseWhitespace(conversation.title) || 'Conversation'}`, header(conversation)];
  const system = conversation.parameters.systemPrompt?.trim();
  if (system) blocks.push(`**System prompt**\n\n${quote(closeOpenFence(system))}`);
  for (const turn of conversation.turns) {
    blocks.push('---', ...(turn.role === 'user' ? userTurn(turn, imageLink) : assistantTurn(turn)));
  }
  return `${blocks.join('\n\n')}\n`;
}

function header(conversation: Conversation): string {
  const lines = [
    `- **Model:** ${inlineCode(conversation.model || 'unknown')}`,
    `- **Created:** ${formatDate(conversation.createdAt)}`,
    `- **Updated:** ${formatDate(conversation.updatedAt)}`,
  ];
  const settings = parameterText(conversation.parameters);
  if (settings) lines.push(`- **Parameters:** ${settings}`);
  return lines.join('\n');
}

function parameterText(parameters: ChatParameters): string {
  const parts: string[] = [];
  if (parameters.temperature !== undefined) parts.push(`temperature ${parameters.temperature}`);
  if (parameters.maxTokens !== undefined) parts.push(`max tokens ${parameters.maxTokens}`);
  if (parameters.reasoningEffort !== undefined) parts.push(`reasoning effort ${parameters.reasoningEffort}`);
  if (parameters.thinkingBudget !== undefined) parts.push(`thinking budget ${parameters.thinkingBudget} tokens`);
  return parts.join(', ');
}

function userTurn(turn: UserTurn, imageLink: ExportedImageLink): string[] {
  const blocks = [`## You · ${formatDate(turn.createdAt)}`];
  if (turn.text.trim()) blocks.push(closeOpenFence(turn.text.trimEnd()));
  for (const item of turn.attachments) blocks.push(attachmentBlock(item));
  if (turn.images?.length) blocks.push(turn.images.map((ref) => imageLine(ref, imageLink(ref))).join('\n'));
  return blocks;
}

/** An image as markdown: the picture when it was exported, else its description in words. */
function imageLine(ref: ImageRef, link: string | undefined): string {
  // The name was cleaned of brackets and control characters when stored (chatImage.ts); a * or _
  // in it would still start emphasis, so it is escaped.
  const alt = escapeMarkdown(`${ref.name ?? 'image'} (${ref.mediaType}, ${ref.byteLength} bytes)`);
  return link ? `![${alt}](${link})` : `*[${alt}: not exported, its file is no longer stored]*`;
}

/** A label (path and line range) then the text in a fence longer than any backtick run inside it. */
function attachmentBlock(item: Attachment): string {
  let label = `**${inlineCode(item.path)}**`;
  if (item.startLine !== undefined) {
    label +=
      item.endLine !== undefined && item.endLine !== item.startLine
        ? ` lines ${item.startLine}–${item.endLine}`
        : ` line ${item.startLine}`;
  } else if (item.kind === 'file') {
    label += ' (file)';
  } else if (item.kind === 'research') {
    label += ' (research report)';
  }
  if (item.truncated) label += ' (shortened)';
  const fence = '`'.repeat(Math.max(3, longestRun(item.text, '`') + 1));
  // An info string may not contain backticks; a language id never should, but the file is untrusted.
  const language = (item.languageId ?? '').replace(/[`\s]/g, '');
  return `${label}\n\n${fence}${language}\n${item.text.replace(/\n$/, '')}\n${fence}`;
}

function assistantTurn(turn: AssistantTurn): string[] {
  const blocks = [`## Assistant (${inlineCode(turn.model || 'unknown')}) · ${formatDate(turn.createdAt)}`];
  if (turn.context?.summary)
    blocks.push(
      `> **Earlier turns summarized** (the first ${turn.context.summary.turns} turns, for this and later requests)\n>\n${quote(closeOpenFence(turn.context.summary.text.trim()))}`,
    );
  if (turn.context?.dropped)
    blocks.push(
      quote(
        `*The first ${turn.context.dropped.turns} turns were left out of this and later requests (${collapseWhitespace(turn.context.dropped.reason)}).*`,
      ),
    );
  if (turn.reasoning.trim()) blocks.push(`> **Reasoning**\n>\n${quote(closeOpenFence(turn.reasoning.trim()))}`);
  if (turn.toolSteps.length > 0) blocks.push(`**Tools**\n\n${turn.toolSteps.map(toolLine).join('\n')}`);
  // The reply as the model wrote it; a reply cut mid code block gets its fence closed, or it
  // would swallow the rest of the document.
  if (turn.content.trim()) blocks.push(closeOpenFence(turn.content.trimEnd()));
  const sources = sourcesMarkdown(turn.sources ?? []);
  if (sources) blocks.push(sources);
  const ending = endingNote(turn);
  if (ending) blocks.push(ending);
  const usage = usageLine(turn);
  if (usage) blocks.push(usage);
  return blocks;
}

function toolLine(step: ToolStep): string {
  const where =
    step.kind === 'server'
      ? `${step.server ? `on ${inlineCode(step.server)}` : 'on the gateway'}${step.failed ? ', failed' : ''}`
      : step.status;
  let line = `- ${inlineCode(step.name)} (${where})`;
  if (step.arguments?.trim()) line += ` with ${inlineCode(shorten(step.arguments, SHORT_ARGUMENTS))}`;
  if (step.result?.trim()) line += `: ${inlineCode(shorten(step.result, SHORT_RESULT))}`;
  return line;
}

function endingNote(turn: AssistantTurn): string | undefined {
  if (turn.error)
    return quote(`**Error (${ERROR_LABELS[turn.error.kind] ?? 'error'}):** ${collapseWhitespace(turn.error.message)}`);
  if (turn.status === 'error') return quote('**Error:** the reply did not finish.');
  if (turn.status === 'stopped' || turn.status === 'streaming') return quote('*Stopped: the reply did not finish.*');
  if (turn.finishReason === 'length') return quote('*Cut off at the maximum number of tokens.*');
  return undefined;
}

function usageLine(turn: AssistantTurn): string | undefined {
  const parts: string[] = [];
  if (turn.usage) parts.push(`${turn.usage.promptTokens} prompt + ${turn.usage.completionTokens} completion tokens`);
  if (turn.cost) {
    // Round away float noise (0.30000000000000004) without hiding small costs.
    const credits = Number(turn.cost.credits.toFixed(6));
    const source = turn.cost.source === 'pricing' ? 'from pricing' : 'balance change';
    parts.push(
      `${credits} ${credits === 1 ? 'credit' : 'credits'} (${source}${turn.cost.estimate ? ', estimate: other requests overlapped' : ''})`,
    );
  }
  return parts.length > 0 ? `*Usage: ${parts.join(' · ')}*` : undefined;
}

/** ISO-like and in UTC, so an export reads the same wherever it is made. */
function formatDate(epochMs: number): string {
  const date = new Date(epochMs);
  if (Number.isNaN(date.getTime())) return 'unknown date';
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

function quote(text: string): string {
  return text
    .split('\n')
    .map((line) => (line ? `> ${line}` : '>'))
    .join('\n');
}

/** Inline code that survives backticks in the text (CommonMark: a longer delimiter, padded with spaces). */
function inlineCode(text: string): string {
  const flat = text.replace(/\s+/g, ' ');
  const ticks = '`'.repeat(longestRun(flat, '`') + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') ? ' ' : '';
  return `${ticks}${pad}${flat}${pad}${ticks}`;
}

function shorten(text: string, max: number): string {
  const flat = collapseWhitespace(text);
  const chars = Array.from(flat);
  return chars.length <= max ? flat : `${chars.slice(0, max - 1).join('')}…`;
}

function longestRun(text: string, char: string): number {
  let longest = 0;
  let current = 0;
  for (const c of text) {
    current = c === char ? current + 1 : 0;
    longest = Math.max(longest, current);
  }
  return longest;
}

/** Appends the closing fence when the text ends inside a fenced code block (a reply stopped mid-block). */
function closeOpenFence(text: string): string {
  let open: { readonly char: string; readonly length: number } | undefined;
  for (const line of text.split('\n')) {
    const match = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(line);
    if (!match) continue;
    const run = match[1] ?? '';
    const char = run.charAt(0);
    const rest = match[2] ?? '';
    if (!open) {
      // A backtick fence's info string may not contain backticks (then it is not a fence).
      if (char === '`' && rest.includes('`')) continue;
      open = { char, length: run.length };
    } else if (char === open.char && run.length >= open.length && rest.trim() === '') {
      open = undefined;
    }
  }
  return open ? `${text}\n${open.char.repeat(open.length)}` : text;
}
