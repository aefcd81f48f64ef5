#!/usr/bin/env node
import { main } from "./main.js";

main(process.argv.slice(2), {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
}).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`claude-a2a: unexpected error: ${String((err as Error).stack ?? err)}\n`);
    process.exitCode = 1;
  },
);
