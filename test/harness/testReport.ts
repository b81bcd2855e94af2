/** What each test layer writes for scripts/test.mjs to sum (see countingReporter). */
export interface TestReport {
  label: string;
  passed: number;
  failed: number;
  pending: number;
  lines: string[];
}
