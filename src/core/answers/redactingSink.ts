// The sink streamGatewayAnswer hands its consumer: text and reasoning pass through a
// StreamRedactor each (a key split across deltas is caught; the end of what arrived may wait for
// the next delta), tool calls and server tool steps are redacted whole. A tool event does not
// release held text: a gateway could put one between the two halves of a key. The held tail (shorter
// than the key) goes out with the next text or at the end, so a few characters may follow a step
// that came after them.
import { redactValue } from '../secrets/redact';
import { StreamRedactor } from '../secrets/streamRedactor';
import type { AnswerSink } from './gatewayAnswer';

export interface RedactingSink {
  readonly sink: AnswerSink;
  /** Hands on what is held: at the end of the answer, and when it fails or is stopped. */
  flush(): void;
}

export function redactingSink(target: AnswerSink, secrets: readonly string[]): RedactingSink {
  const text = new StreamRedactor(secrets);
  const reasoning = new StreamRedactor(secrets);
  const emitText = (delta: string): void => {
    if (delta) target.text(delta);
  };
  const emitReasoning = (delta: string): void => {
    if (delta) target.reasoning?.(delta);
  };
  const flush = (): void => {
    emitReasoning(reasoning.flush());
    emitText(text.flush());
  };
  const sink: AnswerSink = {
    text: (delta) => emitText(text.push(delta)),
    reasoning: (delta) => emitReasoning(reasoning.push(delta)),
    toolCall: (call) => target.toolCall?.(redactValue(call, secrets)),
    toolsExecuted: (tools) => target.toolsExecuted?.(redactValue(tools, secrets)),
    sources: (sources) => target.sources?.(redactValue(sources, secrets)),
  };
  return { sink, flush };
}
