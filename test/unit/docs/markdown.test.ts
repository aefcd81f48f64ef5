import { describe, expect, it } from "vitest";
import { anchors, isExternal, links, slug } from "../../support/docs/markdown.js";

describe("GitHub heading slugs", () => {
  it.each([
    ["Quickstart", "quickstart"],
    ["Event stream contract (`metadata.kind`)", "event-stream-contract-metadatakind"],
    ["v0.3 clients and header-less requests", "v03-clients-and-header-less-requests"],
    ["No orphans after `kill -9`", "no-orphans-after-kill--9"],
    ["Interactive tasks (input-required)", "interactive-tasks-input-required"],
    ["`server`", "server"],
    [
      "Observability: logs, health, metrics and tracing",
      "observability-logs-health-metrics-and-tracing",
    ],
    ["**Bold** and [a link](x.md) _here_", "bold-and-a-link-here"],
    ["Ünïcode wörds", "ünïcode-wörds"],
  ])("%s → #%s", (heading, expected) => {
    expect(slug(heading)).toBe(expected);
  });
});

describe("a page's anchors", () => {
  it("numbers repeated headings and ignores headings inside code blocks", () => {
    const page = [
      "# Title",
      "## Usage",
      "```sh",
      "# not a heading",
      "```",
      "## Usage",
      '<a id="custom"></a>',
    ].join("\n");
    expect([...anchors(page)]).toEqual(["title", "usage", "usage-1", "custom"]);
  });
});

describe("a page's links", () => {
  it("finds inline links, images and definitions, not those in code", () => {
    const page = [
      "See [the docs](docs/README.md#top) and ![a picture](docs/console.png).",
      "Not `[this](nowhere.md)`, nor:",
      "```",
      "[that](nowhere.md)",
      "```",
      "[ref]: ./operations.md",
      "[out](https://example.com/x)",
    ].join("\n");
    expect(links(page)).toEqual([
      { line: 1, target: "docs/README.md#top" },
      { line: 1, target: "docs/console.png" },
      { line: 6, target: "./operations.md" },
      { line: 7, target: "https://example.com/x" },
    ]);
  });

  it.each([
    ["https://example.com", true],
    ["mailto:a@b.c", true],
    ["//cdn.example.com/x", true],
    ["docs/a.md", false],
    ["#anchor", false],
  ])("isExternal(%s) is %s", (target, external) => {
    expect(isExternal(target)).toBe(external);
  });
});
