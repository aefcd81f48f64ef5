/**
 * docs/ARCHITECTURE.md's layer picture is drawn from the lint's table (eslint.config.js LAYERS):
 * the page must hold what the script draws now, and the drawing does what the page relies on.
 */
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import {
  ARCHITECTURE_DOC,
  BEGIN_MARKER,
  END_MARKER,
  layersPicture,
  renderArchitectureDoc,
  withLayersPicture,
} from "../../../scripts/layers-picture.js";

describe("docs/ARCHITECTURE.md's layer picture", () => {
  it("is the one the lint's LAYERS draw (run: npm run docs:layers)", async () => {
    const committed = await readFile(ARCHITECTURE_DOC, "utf8");
    expect(committed).toBe(await renderArchitectureDoc(committed));
  });
});

describe("layersPicture", () => {
  const layers = [["contract", "common"], ["store"], ["cli"]];

  it.each<{ name: string; notes: Record<string, string>; picture: string }>([
    {
      name: "top layer first, modules joined, notes in one column",
      notes: { contract: "the leaves", cli: "the entry" },
      picture: [
        " cli".padEnd(35) + " the entry",
        " store",
        " contract · common".padEnd(35) + " the leaves",
      ].join("\n"),
    },
    {
      name: "no notes: the names alone",
      notes: {},
      picture: " cli\n store\n contract · common",
    },
  ])("$name", ({ notes, picture }) => {
    expect(layersPicture(layers, notes)).toBe(picture);
  });

  it.each([["common"], ["gone"]])("refuses a note keyed %s, no layer's first module", (key) => {
    expect(() => layersPicture(layers, { [key]: "stale" })).toThrow(key);
  });
});

describe("withLayersPicture", () => {
  it("renews only what lies between the markers", () => {
    const page = `before\n${BEGIN_MARKER}\nold\n${END_MARKER}\nafter\n`;
    expect(withLayersPicture(page, " cli")).toBe(
      `before\n${BEGIN_MARKER}\n\n\`\`\`\n cli\n\`\`\`\n\n${END_MARKER}\nafter\n`,
    );
  });

  it("throws when a marker is lost, rather than writing the picture nowhere", () => {
    expect(() => withLayersPicture("no markers here", " cli")).toThrow(/lost its markers/);
  });
});
