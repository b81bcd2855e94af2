// The reason every completion request is stopped with. `abort()` without one builds a DOMException
// with its stack trace each time: about 0.1 ms, and milliseconds at the tail, paid on the keystroke
// that supersedes a request (measured by npm run bench -- completions). One reason, made once, costs
// nothing; it is named AbortError like the default, so every check for a cancellation still holds.
export const COMPLETION_ABORTED: Error = Object.assign(new Error('The completion was superseded or stopped.'), {
  name: 'AbortError',
});
