import { UserError } from "../config/index.js";
import { isCorruptionError } from "../databases/index.js";
import { configStep } from "./config-step.js";
import { databasesStep } from "./databases-step.js";
import { permissionsStep } from "./permissions-step.js";
import { providersStep } from "./providers-step.js";
import { referenceStep } from "./reference-step.js";
import { sessionsStep } from "./sessions-step.js";
import { workspaceStep } from "./workspace-step.js";
import type { DoctorContext, DoctorStep, DoctorStepResult } from "./types.js";

/**
 * Doctor's steps in the order they run. Later concerns (workspace, sessions) add theirs here; the
 * reference import and the databases step come before the steps that open the databases, so
 * --fix imports and restores them first.
 */
export const DOCTOR_STEPS: DoctorStep[] = [
  configStep,
  permissionsStep,
  referenceStep,
  databasesStep,
  workspaceStep,
  sessionsStep,
  providersStep,
];

export interface DoctorReport {
  fix: boolean;
  steps: { id: string; title: string; result: DoctorStepResult }[];
  /** Changes made (fix) or pending (report-only). */
  changeCount: number;
  problemCount: number;
}

/**
 * Runs every step; with `fix: false` nothing on disk changes. A step that throws a UserError (or
 * meets a damaged database) reports it as its problem, and the later steps still run.
 */
export async function runDoctor(ctx: DoctorContext, steps: readonly DoctorStep[] = DOCTOR_STEPS): Promise<DoctorReport> {
  const report: DoctorReport = { fix: ctx.fix, steps: [], changeCount: 0, problemCount: 0 };
  for (const step of steps) {
    const result = await step.run(ctx).catch((err: unknown): DoctorStepResult => {
      if (!(err instanceof UserError) && !isCorruptionError(err)) throw err;
      return { changes: [], problems: [(err as Error).message], notes: [] };
    });
    report.steps.push({ id: step.id, title: step.title, result });
    report.changeCount += result.changes.length;
    report.problemCount += result.problems.length;
  }
  return report;
}

/** Human-readable report: one line per change, then problems, then a summary. */
export function formatDoctorReport(report: DoctorReport, configPath: string): string {
  const lines: string[] = [`openclaw doctor: ${configPath}`];
  for (const { title, result } of report.steps) {
    if (result.changes.length === 0 && result.problems.length === 0 && result.notes.length === 0) continue;
    lines.push("", `${title}:`);
    if (result.changes.length > 0 && !report.fix) lines.push("  Would change (run `openclaw doctor --fix` to apply):");
    for (const c of result.changes) lines.push(`  ${c}`);
    for (const n of result.notes) lines.push(`  ${n}`);
    for (const p of result.problems) lines.push(...`! ${p}`.split("\n").map((l) => `  ${l}`));
  }
  lines.push("");
  if (report.changeCount === 0 && report.problemCount === 0) {
    lines.push(report.fix ? "Everything is up to date; nothing to change." : "No problems found.");
  } else {
    const changes = report.fix
      ? `${report.changeCount} change${report.changeCount === 1 ? "" : "s"} applied`
      : `${report.changeCount} change${report.changeCount === 1 ? "" : "s"} pending`;
    const problems = `${report.problemCount} problem${report.problemCount === 1 ? "" : "s"} to fix by hand`;
    lines.push(`${changes}; ${problems}.`);
  }
  return lines.join("\n");
}
