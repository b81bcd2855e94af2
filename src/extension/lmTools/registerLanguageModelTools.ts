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
import { LM_TOOLS } from './toolNames';
import { transcribeTool } from './transcribeTool';

export function registerLanguageModelTools(deps: LmToolDeps): vscode.Disposable[] {
  return [
    vscode.lm.registerTool(LM_TOOLS.deepResearch.name, deepResearchTool(deps)),
    vscode.lm.registerTool(LM_TOOLS.researchStatus.name, researchStatusTool(deps)),
    vscode.lm.registerTool(LM_TOOLS.semanticSearch.name, semanticSearchTool(deps)),
    vscode.lm.registerTool(LM_TOOLS.rerank.name, rerankTool(deps)),
    vscode.lm.registerTool(LM_TOOLS.generateImage.name, generateImageTool(deps)),
    vscode.lm.registerTool(LM_TOOLS.transcribe.name, transcribeTool(deps)),
    vscode.lm.registerTool(LM_TOOLS.credits.name, creditsTool(deps)),
  ];
}
