// A highlight.js grammar module, for the server's program only: see hljs-core.d.ts.
import type { LanguageFn } from "./hljs-core.js";

declare const grammar: LanguageFn;
export default grammar;
