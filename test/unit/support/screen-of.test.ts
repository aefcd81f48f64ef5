/** The test terminal's screen model (test/support/client/pty.ts): what recorded sessions compare. */
import { describe, expect, it } from "vitest";
import { screenOf } from "../../support/client/pty.js";

describe("screenOf", () => {
  it.each([
    ["plain lines", "a\r\nb", "a\nb"],
    ["\\r rewrites the line from its start", "abc\rX", "Xbc"],
    ["ESC[2K clears the line", "abc\x1b[2K\x1b[Gd", "d"],
    ["ESC[K clears the rest (npm's spinner)", "\\\x1b[1G\x1b[0K\r\n> x", "\n> x"],
    ["ESC[3G moves within the line", "abcd\x1b[3GX", "abXd"],
    [
      "ESC[1A redraws a prompt in place (the arrow keys' choice)",
      "? q\r\n❯ red\r\n  blue\x1b[2K\x1b[1A\x1b[2K\x1b[1A\x1b[2K\x1b[G✔ q blue\r\nnext",
      "✔ q blue\nnext\n",
    ],
    ["colours are dropped", "\x1b[36mcyan\x1b[39m", "cyan"],
  ])("%s", (_why, raw, screen) => {
    expect(screenOf(raw)).toBe(screen);
  });
});
