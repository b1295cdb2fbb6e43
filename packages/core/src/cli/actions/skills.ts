// `openclaw skills list|check`, loaded only when one of them runs.
import { homedir } from "node:os";
import { resolveAgentId } from "../../agents/index.js";
import { compactHome, discoverSkills, type DiscoverSkillsResult, type SkillRecord } from "../../skills/index.js";
import type { CliContext } from "../context.js";

export interface SkillsOptions {
  agent?: string;
  json?: boolean;
  eligible?: boolean;
}

/** `skills list`: every skill found (or only eligible ones), as a table or JSON. */
export async function listSkills(ctx: CliContext, opts: SkillsOptions): Promise<void> {
  const result = await discover(ctx, opts.agent);
  const shown = opts.eligible ? result.skills.filter((s) => s.eligible) : result.skills;
  if (opts.json) {
    writeJson(ctx, {
      agentId: result.agentId,
      workspaceDir: result.workspaceDir,
      skills: shown.map(toJson),
      warnings: result.warnings,
    });
    return;
  }
  writeWarnings(ctx, result);
  if (shown.length === 0) {
    ctx.stdout.write(opts.eligible ? "No eligible skills.\n" : "No skills found.\n");
    return;
  }
  const rows = shown.map((s) => [s.name, s.source, s.eligible ? "yes" : "no", oneLine(s.description, 70)]);
  ctx.stdout.write(table(["NAME", "SOURCE", "ELIGIBLE", "DESCRIPTION"], rows));
}

/** `skills check`: for each skill, eligible or the reasons it is not. */
export async function checkSkills(ctx: CliContext, opts: SkillsOptions): Promise<void> {
  const result = await discover(ctx, opts.agent);
  const eligible = result.skills.filter((s) => s.eligible).length;
  const ineligible = result.skills.length - eligible;
  if (opts.json) {
    writeJson(ctx, {
      agentId: result.agentId,
      workspaceDir: result.workspaceDir,
      eligible,
      ineligible,
      skills: result.skills.map(toJson),
      warnings: result.warnings,
    });
    return;
  }
  writeWarnings(ctx, result);
  const home = homeDir();
  const lines = [`Skills for agent ${result.agentId} (workspace ${compactHome(result.workspaceDir, home)})`, ""];
  for (const s of result.skills) {
    const where = `${s.source}, ${compactHome(s.path, home)}`;
    lines.push(
      s.eligible ? `  ok  ${s.name} (${where})` : `  no  ${s.name} (${where}): ${s.reasons.map((r) => compactReason(r, home)).join("; ")}`,
    );
  }
  if (result.skills.length === 0) lines.push("  (no skills found)");
  lines.push("", `${eligible} eligible, ${ineligible} not eligible.`);
  ctx.stdout.write(`${lines.join("\n")}\n`);
}

/** Skills of `agent` (default: the configured default agent; an unknown id is a UserError). */
async function discover(ctx: CliContext, agent: string | undefined): Promise<DiscoverSkillsResult> {
  const loaded = await ctx.loadConfig();
  const agentId = resolveAgentId(loaded.config, agent, loaded.path);
  return discoverSkills({
    stateDir: ctx.paths().stateDir,
    home: homeDir(),
    config: loaded.config,
    agentId,
  });
}

function homeDir(): string {
  return process.env.HOME || homedir();
}

function toJson(s: SkillRecord): Record<string, unknown> {
  const out: Record<string, unknown> = {
    name: s.name,
    source: s.source,
    eligible: s.eligible,
    description: s.description,
    key: s.key,
    path: s.path,
    reasons: s.reasons,
  };
  if (s.shadowedBy !== undefined) out.shadowedBy = s.shadowedBy;
  return out;
}

function writeJson(ctx: CliContext, value: unknown): void {
  ctx.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

function writeWarnings(ctx: CliContext, result: DiscoverSkillsResult): void {
  for (const w of result.warnings) ctx.stderr.write(`warning: ${w}\n`);
}

function compactReason(reason: string, home: string): string {
  return home ? reason.split(home + "/").join("~/") : reason;
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]): string =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] ?? 0)))
      .join("  ")
      .trimEnd();
  return `${[header, ...rows].map(line).join("\n")}\n`;
}
