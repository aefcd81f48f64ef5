/**
 * Several registries' text expositions as one (one per workspace, each sample labelled with
 * its workspace): the format wants each metric family once, its HELP and TYPE lines first and
 * all its samples together, so the families are merged by name, in first-seen order. Pure.
 */
export function mergeExpositions(texts: readonly string[]): string {
  const families = new Map<string, { head: string[]; samples: string[] }>();
  for (const text of texts) {
    let current: { head: string[]; samples: string[] } | undefined;
    for (const line of text.split("\n")) {
      if (line === "") continue;
      const meta = /^# (HELP|TYPE) (\S+)/.exec(line);
      if (meta) {
        const name = meta[2] ?? "";
        let family = families.get(name);
        if (family === undefined) {
          family = { head: [], samples: [] };
          families.set(name, family);
        }
        if (family.head.length < 2 && !family.head.some((h) => h.startsWith(`# ${meta[1]} `))) {
          family.head.push(line);
        }
        current = family;
        continue;
      }
      current?.samples.push(line);
    }
  }
  const blocks = [...families.values()].map((f) => [...f.head, ...f.samples].join("\n"));
  return blocks.length === 0 ? "" : `${blocks.join("\n\n")}\n`;
}
