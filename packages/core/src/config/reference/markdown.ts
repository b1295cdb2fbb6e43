/** Small Markdown helpers for the generated reference (GitHub-flavoured Markdown). */

/** Inline code; pipes are escaped so the span can sit in a table cell. */
export function code(text: string): string {
  const fence = text.includes("`") ? "``" : "`";
  const pad = fence.length > 1 || text.startsWith("`") || text.endsWith("`") ? " " : "";
  return `${fence}${pad}${text.replace(/\|/g, "\\|")}${pad}${fence}`;
}

/**
 * Prose from a schema description made safe for one table cell: code spans are kept, outside
 * them `<`, `*` and `\` are escaped (so `<stateDir>` is not read as HTML), pipes are escaped and
 * line breaks become spaces.
 */
export function prose(text: string): string {
  const parts = text.replace(/\r?\n/g, " ").split(/(`[^`]*`)/);
  return parts
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/[\\<*]/g, (c) => `\\${c}`)))
    .join("")
    .replace(/\|/g, "\\|")
    .trim();
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to dashes, repeats numbered. */
export function createSlugger(): (heading: string) => string {
  const used = new Map<string, number>();
  return (heading) => {
    const base = heading
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, "")
      .replace(/ /g, "-");
    const count = used.get(base) ?? 0;
    used.set(base, count + 1);
    return count === 0 ? base : `${base}-${count}`;
  };
}

/** A GFM table; cells must already be escaped. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string[] {
  const line = (cells: readonly string[]) => `| ${cells.join(" | ")} |`;
  return [line(header), line(header.map(() => "---")), ...rows.map(line)];
}
