import * as vscode from 'vscode';
import type { GatewayMessage, GatewayPart, GatewayTool } from './gatewayMessages';

/** The text inside a tool result's content (text parts, and anything else as JSON). */
function resultText(content: readonly unknown[]): string {
  return content
    .map((part) => {
      if (part instanceof vscode.LanguageModelTextPart) return part.value;
      if (typeof part === 'object' && part !== null && typeof (part as { value?: unknown }).value === 'string') return (part as { value: string }).value;
      return typeof part === 'string' ? part : JSON.stringify(part);
    })
    .join('');
}

function toPart(part: unknown): GatewayPart | undefined {
  if (part instanceof vscode.LanguageModelTextPart) return { kind: 'text', text: part.value };
  if (part instanceof vscode.LanguageModelToolCallPart) return { kind: 'toolCall', id: part.callId, name: part.name, input: part.input };
  if (part instanceof vscode.LanguageModelToolResultPart) return { kind: 'toolResult', callId: part.callId, content: resultText(part.content) };
  return undefined; // data parts (images, cache hints) this provider does not send
}

/** VS Code's request messages in the neutral shape the gateway mapping takes. */
export function toGatewayMessages(messages: readonly vscode.LanguageModelChatRequestMessage[]): GatewayMessage[] {
  return messages.map((message) => ({
    role: message.role === vscode.LanguageModelChatMessageRole.Assistant ? 'assistant' : 'user',
    parts: message.content.map(toPart).filter((part): part is GatewayPart => part !== undefined),
  }));
}

export function toGatewayTools(tools: readonly vscode.LanguageModelChatTool[] | undefined): GatewayTool[] | undefined {
  if (!tools?.length) return undefined;
  return tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    ...(tool.inputSchema && typeof tool.inputSchema === 'object' ? { inputSchema: tool.inputSchema as Record<string, unknown> } : {}),
  }));
}
