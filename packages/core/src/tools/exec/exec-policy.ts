import { homedir } from "node:os";
import path from "node:path";
import { matchesGlob } from "../glob.js";

/** `tools.exec.mode`: which commands exec runs. */
export type ExecMode = "deny" | "allowlist" | "full";

export type ExecPolicyVerdict = { allowed: true } | { allowed: false; reason: string };

/** Characters that, outside quotes, chain, redirect, substitute or escape: refused in allowlist mode. */
const SHELL_SYNTAX = new Set([";", "&", "|", "<", ">", "(", ")", "$", "`", "\\", "\n", "\r"]);
/** Characters still active inside double quotes. */
const ACTIVE_IN_DOUBLE_QUOTES = new Set(["$", "`", "\\"]);

function describeChar(c: string): string {
  return c === "\n" ? "a newline" : c === "\r" ? "a carriage return" : `"${c}"`;
}

/** A word of a simple command, quotes removed; `quoted` when any part of it was in quotes. */
export interface CommandWord {
  text: string;
  quoted: boolean;
}

/**
 * Splits a command into words if it is one simple command: words, single and double quotes, and
 * nothing the shell would act on (no `;`, `&`, `|`, redirections, `$`, backticks, backslashes or
 * newlines outside single quotes). Returns the reason otherwise.
 */
export function simpleCommandWords(command: string): { words: CommandWord[] } | { error: string } {
  const words: CommandWord[] = [];
  let word = "";
  let inWord = false;
  let quoted = false;
  let quote: "'" | '"' | undefined;
  for (const c of command) {
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else word += c;
      continue;
    }
    if (quote === '"') {
      if (c === '"') quote = undefined;
      else if (ACTIVE_IN_DOUBLE_QUOTES.has(c)) return { error: `it uses ${describeChar(c)} inside double quotes` };
      else word += c;
      continue;
    }
    if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
      quoted = true;
    } else if (c === " " || c === "\t") {
      if (inWord) words.push({ text: word, quoted });
      word = "";
      inWord = false;
      quoted = false;
    } else if (SHELL_SYNTAX.has(c)) {
      return { error: `it uses ${describeChar(c)}, which the shell would act on` };
    } else {
      word += c;
      inWord = true;
    }
  }
  if (quote) return { error: "a quote is not closed" };
  if (inWord) words.push({ text: word, quoted });
  if (words.length === 0) return { error: "it is empty" };
  return { words };
}

function expandHome(p: string): string {
  return p === "~" ? homedir() : p.startsWith("~/") ? path.join(homedir(), p.slice(2)) : p;
}

/**
 * Whether `program` (the first word of a command) matches an allowlist pattern. A pattern without
 * `/` matches a bare program name, found through PATH (`git`, `python3*`); a pattern with `/`
 * matches a program given as a path, resolved against `cwd` (`~/bin/*`, `/usr/local/bin/rg`);
 * a leading `~/` counts as the home folder only where the shell expands it (unquoted).
 * `*` matches any characters; matching is case-sensitive.
 */
export function programMatches(pattern: string, program: CommandWord, cwd: string): boolean {
  const p = pattern.trim();
  const text = program.text;
  if (!p.includes("/")) return !text.includes("/") && matchesGlob(p, text, { caseSensitive: true });
  if (!text.includes("/")) return false;
  const resolved = path.resolve(cwd, program.quoted ? text : expandHome(text));
  return matchesGlob(expandHome(p), resolved, { caseSensitive: true });
}

/**
 * Decides whether exec may run `command` under `tools.exec.mode`:
 * - `"full"` (default): every command.
 * - `"deny"`: none.
 * - `"allowlist"`: one simple command (see {@link simpleCommandWords}) whose program matches a
 *   `tools.exec.allowlist` pattern (see {@link programMatches}); its arguments are not checked. A
 *   first word that assigns a variable (`A=1 cmd`), holds a glob (`*`, `?`, `[`) or starts
 *   with `~user` is refused.
 */
export function checkExecPolicy(command: string, mode: ExecMode, allowlist: readonly string[], cwd: string): ExecPolicyVerdict {
  if (mode === "full") return { allowed: true };
  if (mode === "deny") {
    return {
      allowed: false,
      reason:
        'exec is turned off: tools.exec.mode is "deny", so no command runs. Tell the user; they can change tools.exec.mode in the config.',
    };
  }
  const listed =
    allowlist.length > 0 ? `Allowed programs (tools.exec.allowlist): ${allowlist.join(", ")}.` : "tools.exec.allowlist is empty.";
  const refuse = (why: string): ExecPolicyVerdict => ({
    allowed: false,
    reason: `exec refused this command: ${why}. tools.exec.mode is "allowlist": only one program from tools.exec.allowlist with plain arguments runs (no pipes, chaining, redirection or $). ${listed} Run an allowed program on its own, or ask the user to add the program to tools.exec.allowlist.`,
  });
  const parsed = simpleCommandWords(command);
  if ("error" in parsed) return refuse(parsed.error);
  const program = parsed.words[0]!;
  const name = program.text;
  if (name.includes("=")) return refuse(`its first word "${name}" sets a variable`);
  if (/[*?[]/.test(name)) return refuse(`its program "${name}" holds a wildcard`);
  if (/^~[^/]/.test(name)) return refuse(`its program "${name}" names another user's home folder`);
  if (!allowlist.some((pattern) => programMatches(pattern, program, cwd))) return refuse(`"${name}" is not on the allowlist`);
  return { allowed: true };
}
