// Where in a JSON5 config text a validation issue's path (`channels.telegram.botToken`,
// `agents.list[0].model`) is written, so the error can be shown on that line.

function segmentsOf(path: string): string[] {
  return path
    .replace(/\[(\d+)\]/g, ".$1")
    .split(".")
    .filter((s) => s !== "" && !/^\d+$/.test(s));
}

function keyPattern(key: string): RegExp {
  const escaped = key.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(^|[\\s{,])(["']?)${escaped}\\2\\s*:`);
}

/**
 * The 1-based line of the deepest key of `path` found in `raw`, searching each key after the line
 * of its parent (a good guess for ordinary, indented files). Undefined when not even the first
 * key is written (a missing required key: the issue belongs to the whole file).
 */
export function lineOfPath(raw: string, path: string): number | undefined {
  const lines = raw.split("\n");
  let from = 0;
  let found: number | undefined;
  for (const key of segmentsOf(path)) {
    const pattern = keyPattern(key);
    let hit: number | undefined;
    for (let i = from; i < lines.length; i += 1) {
      if (pattern.test(lines[i] ?? "")) {
        hit = i;
        break;
      }
    }
    if (hit === undefined) break;
    found = hit + 1;
    from = hit;
  }
  return found;
}
