// A small TypeScript file the Apply and inline edit tests rewrite: three functions, one change each.
export const MATH_SOURCE = [
  'export function add(a: number, b: number): number {',
  '  return a + b;',
  '}',
  '',
  'export function sub(a: number, b: number): number {',
  '  return a - b;',
  '}',
  '',
  'export function mul(a: number, b: number): number {',
  '  return a * b;',
  '}',
  '',
].join('\n');
