import { parse as parseYaml, YAMLParseError } from "yaml";

/** Result of splitting and parsing the front matter of a SKILL.md. */
export type FrontmatterResult = { ok: true; data: Record<string, unknown>; body: string } | { ok: false; error: string; body: string };

// `---` line, optional mapping text, closing `---` (or YAML's `...`) line.
const BLOCK = /^\uFEFF?---[ \t]*\r?\n(?:([\s\S]*?)\r?\n)?(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/;

/**
 * Splits a SKILL.md into its front matter mapping and body. The mapping is parsed as YAML; when
 * YAML rejects it but every line is a plain `key: value` pair (the usual culprit being an
 * unquoted colon inside a description), the lines are read one by one instead. A file without a
 * front matter block, or with a block that is neither, is reported as an error, never thrown.
 */
export function parseFrontmatter(text: string): FrontmatterResult {
  const match = BLOCK.exec(text);
  if (!match) {
    return {
      ok: false,
      error: "no front matter: SKILL.md must start with a `---` block holding name and description",
      body: text,
    };
  }
  const yamlText = match[1] ?? "";
  const body = text.slice(match[0].length);
  let data: unknown;
  try {
    data = parseYaml(yamlText);
  } catch (err) {
    const fallback = parseFlatLines(yamlText);
    if (fallback) return { ok: true, data: fallback, body };
    return { ok: false, error: describeYamlError(err), body };
  }
  if (data === null || data === undefined) return { ok: true, data: {}, body };
  if (typeof data !== "object" || Array.isArray(data)) {
    return { ok: false, error: "front matter must be a mapping of keys to values", body };
  }
  return { ok: true, data: data as Record<string, unknown>, body };
}

/** Strips the front matter block, if any, and returns the rest of the file. */
export function stripFrontmatter(text: string): string {
  const match = BLOCK.exec(text);
  return match ? text.slice(match[0].length) : text.replace(/^\uFEFF/, "");
}

function describeYamlError(err: unknown): string {
  if (err instanceof YAMLParseError) {
    const first = err.message.split("\n")[0] ?? err.message;
    const reason = first.replace(/ at line \d+, column \d+:?$/, "");
    const pos = err.linePos?.[0];
    // +1: the opening `---` occupies the first line of the file.
    return pos ? `invalid YAML front matter at line ${pos.line + 1}, column ${pos.col}: ${reason}` : `invalid YAML front matter: ${reason}`;
  }
  return `invalid YAML front matter: ${err instanceof Error ? err.message : String(err)}`;
}

const FLAT_LINE = /^([A-Za-z0-9_.-]+)[ \t]*:(?:[ \t]+(.*))?$/;

/** The single-line fallback: only unindented `key: scalar` lines, no duplicate keys. */
function parseFlatLines(text: string): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trimEnd();
    if (line === "" || line.startsWith("#")) continue;
    const m = FLAT_LINE.exec(line);
    if (!m) return undefined;
    const key = m[1] as string;
    if (Object.hasOwn(out, key)) return undefined;
    const value = (m[2] ?? "").trim();
    if (/^[[{|>&*!%@`]/.test(value) && !(key === "metadata" && value.startsWith("{"))) {
      return undefined;
    }
    const quote = value[0];
    if (quote === '"' || quote === "'") {
      if (value.length < 2 || !value.endsWith(quote)) return undefined;
      out[key] = value.slice(1, -1);
    } else {
      out[key] = value;
    }
  }
  return out;
}
