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

/** The text parts of a tool result, joined (parts are matched by shape: they come from another extension's API). */
function resultText(result) {
  return (result && Array.isArray(result.content) ? result.content : [])
    .map((part) => (part && typeof part.value === 'string' ? part.value : ''))
    .join('');
}

/**
 * vscode.lm.invokeTool as this extension, outside any chat request (no toolInvocationToken), as
 * a script or another agent would call it. Settles with { text } or { error: { name, message } },
 * never rejects, so a test can assert on either; `cancel` cancels the token passed to invokeTool.
 */
function startTool(name, input) {
  const source = new vscode.CancellationTokenSource();
  const done = Promise.resolve(vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined }, source.token))
    .then(
      (result) => ({ text: resultText(result) }),
      (error) => ({
        error: {
          name: error && error.name ? String(error.name) : 'Error',
          message: error && error.message ? String(error.message) : String(error),
        },
      }),
    )
    .finally(() => source.dispose());
  return { done, cancel: () => source.cancel() };
}

function activate(context) {
  context.subscriptions.push(
    // The integration suite invokes each of Unified Inference's tools through this command.
    vscode.commands.registerCommand('lmConsumer.invokeTool', (name, input) => startTool(name, input).done),
  );
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
    /** The tools vscode.lm lists, as this extension sees them. */
    tools: () =>
      vscode.lm.tools.map((tool) => ({
        name: tool.name,
        description: tool.description,
        inputSchema: tool.inputSchema,
        tags: [...tool.tags],
      })),
    /** An invocation the caller can cancel (a command cannot hand back the cancel function). */
    startTool,
  };
}

module.exports = { activate };
