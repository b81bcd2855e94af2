// Loaded by the workbench as `extensionTestsPath` in the participant UI test: inside the real
// extension host it sends `@unified /speak` through the participant's handler (a browser cannot
// type into a chat the offline workbench does not serve), then stays alive while the browser side
// drives the audio panel.
import * as vscode from 'vscode';
import { PARTICIPANT_ID } from '../../src/extension/participant/participantContext';
import type { TestApi } from '../../src/extension/testApi';

const EXTENSION_ID = 'unified-inference.unified-inference';
export const SPOKEN_ANSWER =
  '## Streams in short\n\nA **stream** delivers data in pieces, so the first words arrive before the last are written. Backpressure lets the reader slow the writer down.';

const silentStream: vscode.ChatResponseStream = {
  markdown: () => undefined,
  anchor: () => undefined,
  button: () => undefined,
  filetree: () => undefined,
  progress: () => undefined,
  reference: () => undefined,
  push: () => undefined,
};

async function until(check: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export async function run(): Promise<void> {
  const extension = vscode.extensions.getExtension<TestApi | undefined>(EXTENSION_ID)!;
  const api = (await extension.activate())!;
  const log = vscode.Uri.joinPath(extension.extensionUri, 'test-results', 'ui-participant-driver.log');
  try {
    await until(() => api.connection.setup.hasKey && !!api.connection.setup.client);
    const Request = vscode.ChatRequestTurn as unknown as new (
      prompt: string,
      command: string | undefined,
      references: unknown[],
      participant: string,
      toolReferences: unknown[],
    ) => vscode.ChatRequestTurn;
    const Response = vscode.ChatResponseTurn as unknown as new (
      response: unknown[],
      result: vscode.ChatResult,
      participant: string,
    ) => vscode.ChatResponseTurn;
    const history = [
      new Request('What is a stream?', undefined, [], PARTICIPANT_ID, []),
      new Response([new vscode.ChatResponseMarkdownPart(SPOKEN_ANSWER)], {}, PARTICIPANT_ID),
    ];
    const request = {
      prompt: '',
      command: 'speak',
      references: [],
      toolReferences: [],
    } as unknown as vscode.ChatRequest;
    const result = await api.participantHandler(
      request,
      { history },
      silentStream,
      new vscode.CancellationTokenSource().token,
    );
    await vscode.workspace.fs.writeFile(log, Buffer.from(`speak: ${JSON.stringify(result)}\n`));
  } catch (error) {
    // The browser side only sees that no panel opened: the reason goes to a file it can print.
    await vscode.workspace.fs.writeFile(
      log,
      Buffer.from(`driver failed: ${error instanceof Error ? error.stack : String(error)}\n`),
    );
    throw error;
  }
  // Never resolves: the workbench would end the session when the "tests" finish.
  await new Promise<never>(() => undefined);
}
