// The gateway's other endpoints as language model tools (vscode.lm.registerTool): any chat agent,
// VS Code's own included, and any extension through vscode.lm.invokeTool can use them. Their
// names, descriptions and input schemas are in package.json (contributes.languageModelTools).
import * as vscode from 'vscode';
import { creditsTool } from './creditsTool';
import { deepResearchTool } from './deepResearchTool';
import { generateImageTool } from './generateImageTool';
import type { LmToolDeps } from './lmToolDeps';
import { rerankTool } from './rerankTool';
import { researchStatusTool } from './researchStatusTool';
import { semanticSearchTool } from './semanticSearchTool';
import { LM_TOOLS, type LmToolKey } from '../../core/lmTools/toolNames';
import { transcribeTool } from './transcribeTool';

export type LmTools = Readonly<Record<LmToolKey, vscode.LanguageModelTool<unknown>>>;

/** Registers every tool; `tools` are the implementations (the integration tests read their confirmations). */
export function registerLanguageModelTools(deps: LmToolDeps): {
  readonly disposables: vscode.Disposable[];
  readonly tools: LmTools;
} {
  const tools: LmTools = {
    deepResearch: deepResearchTool(deps),
    researchStatus: researchStatusTool(deps),
    semanticSearch: semanticSearchTool(deps),
    rerank: rerankTool(deps),
    generateImage: generateImageTool(deps),
    transcribe: transcribeTool(deps),
    credits: creditsTool(deps),
  };
  const disposables = (Object.keys(LM_TOOLS) as LmToolKey[]).map((key) =>
    vscode.lm.registerTool(LM_TOOLS[key].name, tools[key]),
  );
  return { disposables, tools };
}
