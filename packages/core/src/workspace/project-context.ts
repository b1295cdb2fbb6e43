// Builds the "# Project Context" block of the system prompt from the workspace bootstrap files.
import {
  BOOTSTRAP_FILE_NAME,
  loadWorkspaceBootstrapFiles,
  type BootstrapFileName,
  type WorkspaceBootstrapFile,
} from "./bootstrap-files.js";
import { classifySessionKey, fileAllowedForSession, type BootstrapSessionKind } from "./session-kind.js";
import { DEFAULT_BOOTSTRAP_MAX_CHARS, DEFAULT_BOOTSTRAP_TOTAL_MAX_CHARS } from "./settings.js";
import { clampToBudget, truncateWithMarker } from "./truncate.js";

/**
 * What happened to one file:
 * ok (injected whole), truncated (head + marker + tail), missing (a marker line instead),
 * blank (empty after trimming trailing whitespace: skipped), dropped (no budget left: left out).
 */
export type ContextFileStatus = "ok" | "missing" | "blank" | "truncated" | "dropped";

export interface ProjectContextFile {
  name: BootstrapFileName;
  /** Absolute path, as shown in the `## <path>` heading. */
  path: string;
  status: ContextFileStatus;
  /** Size of the file on disk in characters (0 when missing). */
  rawChars: number;
  /** Characters of this file's block in the prompt (content, truncation or missing marker). */
  injectedChars: number;
}

export interface ProjectContextTotals {
  /** Sum of rawChars of the files considered for this session. */
  rawChars: number;
  /** Sum of injectedChars; never above totalMaxChars. */
  injectedChars: number;
  /** Length of the whole text block, headings and notices included. */
  textChars: number;
  /** Per-file cap in force. */
  maxChars: number;
  /** Cap for all files together. */
  totalMaxChars: number;
  /** Files that have a section in the text (ok, truncated or missing). */
  injectedFiles: number;
  truncated: number;
  missing: number;
  blank: number;
  dropped: number;
}

export interface ProjectContext {
  sessionKind: BootstrapSessionKind;
  /** Files considered for this session kind, in prompt order. */
  files: ProjectContextFile[];
  totals: ProjectContextTotals;
  /** The exact block for the system prompt; "" when no file has a section. */
  text: string;
  /** True while BOOTSTRAP.md is injected: add FIRST_RUN_GUIDANCE to the system prompt. */
  bootstrapPending: boolean;
}

export interface ProjectContextOptions {
  /** Session key deciding which files are given (default: the main session, all files). */
  sessionKey?: string;
  /** True for a heartbeat run: only then is HEARTBEAT.md given (default false). */
  heartbeat?: boolean;
  /** Per-file cap in characters; default 12000. A file's block never exceeds it. */
  maxChars?: number;
  /** Cap for all file blocks together; default max(60000, maxChars). Files past it are dropped. */
  totalMaxChars?: number;
}

/** The line standing in for a file that should exist but does not. */
export function missingFileMarker(filePath: string): string {
  return `[missing file: nothing found at ${filePath}]`;
}

function nameList(names: string[]): string {
  if (names.length <= 1) return names.join("");
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

function budgetNotice(truncated: string[], dropped: string[]): string | undefined {
  const parts: string[] = [];
  if (truncated.length) parts.push(`${nameList(truncated)} ${truncated.length === 1 ? "was" : "were"} shortened`);
  if (dropped.length) parts.push(`${nameList(dropped)} ${dropped.length === 1 ? "was" : "were"} left out`);
  if (!parts.length) return undefined;
  const count = truncated.length + dropped.length;
  return (
    `Note: to stay within the context limit, ${parts.join(" and ")}. ` +
    `Read ${count === 1 ? "it" : "them"} from the workspace when you need the full text.`
  );
}

/**
 * Builds the project context from already-loaded files (so a hook may add, remove or replace
 * files first). Budgeting, in prompt order:
 * - blank files are skipped and cost nothing;
 * - each file gets min(maxChars, remaining total); a longer file keeps 75 % head / 25 % tail of
 *   what is left after the marker (see truncate.ts);
 * - a missing file costs its marker line;
 * - once the remaining total cannot hold a file (not even marker + 16 characters), that file and
 *   every later one are dropped, and the prompt says which.
 */
export function buildProjectContext(files: readonly WorkspaceBootstrapFile[], options: ProjectContextOptions = {}): ProjectContext {
  const sessionKind = classifySessionKey(options.sessionKey ?? "agent:main:main");
  const maxChars = options.maxChars ?? DEFAULT_BOOTSTRAP_MAX_CHARS;
  const totalMaxChars = options.totalMaxChars ?? Math.max(DEFAULT_BOOTSTRAP_TOTAL_MAX_CHARS, maxChars);
  const considered = files.filter((f) => fileAllowedForSession(f.name, sessionKind, { heartbeat: options.heartbeat === true }));

  let remaining = totalMaxChars;
  let exhausted = false;
  const results: ProjectContextFile[] = [];
  const sections: { path: string; body: string; name: BootstrapFileName }[] = [];
  for (const file of considered) {
    const record = (status: ContextFileStatus, body?: string): void => {
      results.push({ name: file.name, path: file.path, status, rawChars: file.rawChars, injectedChars: body?.length ?? 0 });
      if (body !== undefined) {
        sections.push({ path: file.path, body, name: file.name });
        remaining -= body.length;
      }
    };
    const content = file.missing ? undefined : (file.content ?? "").trimEnd();
    if (content === "") {
      record("blank");
      continue;
    }
    if (exhausted || remaining <= 0) {
      exhausted = true;
      record("dropped");
      continue;
    }
    const budget = Math.min(maxChars, remaining);
    if (content === undefined) {
      record("missing", clampToBudget(missingFileMarker(file.path), budget));
      continue;
    }
    if (content.length <= budget) {
      record("ok", content);
      continue;
    }
    const cut = truncateWithMarker(content, file.name, file.path, budget, Math.max(file.rawChars, content.length));
    if (cut) {
      record("truncated", cut.text);
    } else if (budget === maxChars) {
      // The configured per-file cap itself is too small for a marker: plain cut.
      record("truncated", clampToBudget(content, budget));
    } else {
      exhausted = true;
      record("dropped");
    }
  }

  const truncatedNames = results.filter((r) => r.status === "truncated").map((r) => r.name);
  const droppedNames = results.filter((r) => r.status === "dropped").map((r) => r.name);
  let text = "";
  if (sections.length) {
    const lines = [
      "# Project Context",
      "",
      "The workspace files below are loaded as project context. Treat them as standing instructions and background.",
    ];
    if (results.some((r) => r.name === "SOUL.md" && (r.status === "ok" || r.status === "truncated"))) {
      lines.push("SOUL.md describes who you are: embody its persona and tone, unless higher-priority instructions say otherwise.");
    }
    const notice = budgetNotice(truncatedNames, droppedNames);
    if (notice) lines.push(notice);
    lines.push("");
    for (const s of sections) lines.push(`## ${s.path}`, "", s.body, "");
    text = lines.join("\n");
  }

  const count = (status: ContextFileStatus): number => results.filter((r) => r.status === status).length;
  const bootstrap = results.find((r) => r.name === BOOTSTRAP_FILE_NAME);
  return {
    sessionKind,
    files: results,
    totals: {
      rawChars: results.reduce((n, r) => n + r.rawChars, 0),
      injectedChars: results.reduce((n, r) => n + r.injectedChars, 0),
      textChars: text.length,
      maxChars,
      totalMaxChars,
      injectedFiles: sections.length,
      truncated: count("truncated"),
      missing: count("missing"),
      blank: count("blank"),
      dropped: count("dropped"),
    },
    text,
    bootstrapPending: bootstrap !== undefined && (bootstrap.status === "ok" || bootstrap.status === "truncated"),
  };
}

/**
 * Reads the workspace's bootstrap files and builds the project context for one session.
 * Read-only: creates nothing. See {@link buildProjectContext} for the budgeting rules.
 */
export async function assembleProjectContext(workspaceDir: string, options: ProjectContextOptions = {}): Promise<ProjectContext> {
  return buildProjectContext(await loadWorkspaceBootstrapFiles(workspaceDir), options);
}
