// The little of highlight.js's core that console/highlight.ts uses, for the server's program
// only (tsconfig.json `paths`; console/tsconfig.json resets them, so the console is checked
// against the package's own types). Those types pull the DOM's into any program that imports them
// (a `reference lib`), and the DOM's fetch types clash with Node's in the server's code. tsx reads
// `paths` too: to run the console's modules under tsx, pass `--tsconfig console/tsconfig.json`.
export type LanguageFn = (hljs: unknown) => unknown;

interface HighlightResult {
  readonly value: string;
}

declare const hljs: {
  registerLanguage(name: string, grammar: LanguageFn): void;
  registerAliases(aliases: string | string[], options: { languageName: string }): void;
  getLanguage(name: string): object | undefined;
  highlight(code: string, options: { language: string; ignoreIllegals?: boolean }): HighlightResult;
};
export default hljs;
