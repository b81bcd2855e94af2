// The README's pictures: made by the UI tests (Workbench.readmeScreenshot), committed under
// media/screenshots/, checked by a unit test (present, small). One list for both, so a picture the
// README shows cannot quietly stop being made.
export const README_SCREENSHOTS = {
  /** The chat with its own side bar: a question and a streamed reply with highlighted code. */
  chatReply: 'chat-reply.jpg',
  /** Apply on a reply's code block: VS Code's diff editor with Accept / Reject on each change. */
  editReview: 'edit-review.jpg',
  /** A finished deep research job's report, beside the list of jobs. */
  researchReport: 'research-report.jpg',
} as const;

export type ReadmeScreenshot = keyof typeof README_SCREENSHOTS;

/** Each picture's cap: the README loads them all, on the repository's page and the marketplace. */
export const README_SCREENSHOT_MAX_BYTES = 150 * 1024;

/** Set to 1 to (re)write media/screenshots/; otherwise the pictures go to test-results/ only, so a test run never changes the tree. */
export const UPDATE_SCREENSHOTS_ENV = 'UNIFIED_INFERENCE_UPDATE_SCREENSHOTS';
