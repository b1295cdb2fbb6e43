// What `openclaw context [--detail]` and the `/context [detail]` chat command show: the bootstrap
// files as injected, and (detail) the size of each tool definition the model is offered.
import type { BootstrapSessionKind, ProjectContext } from "../workspace/index.js";

/** One tool's definition size, as `toolSchemaSizes` reports it. */
export interface ToolSize {
  name: string;
  descriptionChars: number;
  schemaChars: number;
  totalChars: number;
}

/** Which bootstrap files a kind of session gets, in words. */
export const KIND_LABEL: Record<BootstrapSessionKind, string> = {
  main: "main session: every file",
  subagent: "sub-agent session: AGENTS.md and TOOLS.md only",
  group: "group/channel session: no MEMORY.md",
  direct: "direct-message session of its own: no MEMORY.md (only the main session gets it)",
  cron: "cron session: AGENTS, TOOLS, SOUL, IDENTITY and USER only",
};

/** A plain-text table, columns padded; `rightAligned` holds the indexes of numeric columns. Ends with a newline. */
export function table(header: string[], rows: string[][], rightAligned: Set<number>): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]): string =>
    cells
      .map((c, i) => (rightAligned.has(i) ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join("  ")
      .trimEnd();
  return [line(header), ...rows.map(line)].join("\n") + "\n";
}

/** The tools table with a TOTAL row (characters sent with every model call). */
export function toolTable(tools: readonly ToolSize[]): string {
  const rows = tools.map((t) => [t.name, String(t.descriptionChars), String(t.schemaChars), String(t.totalChars)]);
  const total = tools.reduce((n, t) => n + t.totalChars, 0);
  rows.push(["TOTAL", "", "", String(total)]);
  return table(["TOOL", "DESCRIPTION", "SCHEMA", "TOTAL CHARS"], rows, new Set([1, 2, 3]));
}

/** The bootstrap files table with totals, then the per-status counts. */
export function fileSummary(result: ProjectContext): string {
  const rows = result.files.map((f) => [f.name, f.status, String(f.rawChars), String(f.injectedChars)]);
  const t = result.totals;
  rows.push(["TOTAL", "", String(t.rawChars), `${t.injectedChars} of ${t.totalMaxChars}`]);
  const counts = [
    `${t.injectedFiles} injected`,
    `${t.truncated} truncated`,
    `${t.missing} missing`,
    `${t.blank} blank`,
    `${t.dropped} dropped`,
  ].join(", ");
  return table(["FILE", "STATUS", "RAW CHARS", "INJECTED CHARS"], rows, new Set([2, 3])) + `Files: ${counts}\n`;
}
