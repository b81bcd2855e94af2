// A second extension, loaded beside Unified Inference in integration runs only (runIntegration
// passes it as a second development path; the launcher lists it in the run's extensions.json). Its
// `vscode` is its own API instance, so the models it selects are bound to this extension: every
// sendRequest on them is made as "unified-inference-tests.lm-consumer", not as the extension that
// provides the models. Plain JavaScript inside this folder on purpose: a compiled file under the
// repository's out/ would be attributed to Unified Inference itself.
// It declares the languageModelSystem proposal (the VS Code server in code-server honours declared
// proposals) so that it can send System messages, as VS Code's own chat does, and the
// mcpServerDefinitions proposal, to read the MCP servers VS Code knows (vscode.lm.mcpServerDefinitions)
// as its agent sees them. Each is undefined in a host without that proposal.
'use strict';
const vscode = require('vscode');

function activate(context) {
  return {
    extensionId: context.extension.id,
    /** vscode.lm.selectChatModels, as this extension. */
    selectChatModels: (selector) => vscode.lm.selectChatModels(selector),
    /** A System message (role 3 needs the languageModelSystem proposal at sendRequest). */
    systemMessage: (text) => new vscode.LanguageModelChatMessage(vscode.LanguageModelChatMessageRole.System, text),
    /** The MCP server definitions of every collection (ours included), or undefined without the API. */
    mcpServerDefinitions: () => {
      const list = vscode.lm.mcpServerDefinitions;
      if (!Array.isArray(list)) return undefined;
      return list.map((server) => ({
        label: server.label,
        uri: server.uri ? server.uri.toString(true) : undefined,
        headers: server.headers ? { ...server.headers } : undefined,
        command: server.command,
      }));
    },
  };
}

module.exports = { activate };
