// Import of workspace state kept by older releases in JSON files into the state database
// (`openclaw doctor --fix`). The runtime never reads these files.
//
// Legacy shapes (our definition; sources say little more than "a JSON file and .attested sidecars"):
//   1. <stateDir>/workspace-state.json
//        { "workspaces": { "<absolute workspace path>": { "bootstrapSeededAt"?: ISO, "setupCompletedAt"?: ISO } } }
//   2. <workspace>/.openclaw/workspace-state.json
//        { "version"?: 1, "bootstrapSeededAt"?: ISO, "setupCompletedAt"?: ISO, "onboardingCompletedAt"?: ISO }
//   3. <workspace>/.openclaw/.attested
//        { "attestedAtMs": number, "generatedHashes": { "AGENTS.md": "<hex sha256>", ... } }
// `onboardingCompletedAt` is the older releases' name of the completion date: it imports as
// `setupCompletedAt` (which wins when both are set). Merge rules: a setup field already set in
// the database wins over the legacy one; of two attestations the newer wins. A source is removed
// only after its rows were read back from the database and found to cover it, and only when
// every field in it was understood: a source that cannot be parsed or verified, or that holds a
// field this version does not know, is kept and reported (what it understood is still imported).
import { readFile, rm, rmdir } from "node:fs/promises";
import { existsSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import {
  getWorkspaceAttestation,
  getWorkspaceSetupState,
  openStateDb,
  putWorkspaceAttestation,
  updateWorkspaceSetupState,
  type StateDb,
  type WorkspaceSetupState,
} from "../state/index.js";

const isoTimestamp = z.string().refine((s) => !Number.isNaN(Date.parse(s)), "not an ISO-8601 timestamp");
// Loose objects: fields this version does not know are kept in the parsed value, so that
// `unknownFields` can find them and the file is not deleted with them.
const setupShape = z
  .looseObject({
    version: z.literal(1).optional(),
    bootstrapSeededAt: isoTimestamp.nullish(),
    setupCompletedAt: isoTimestamp.nullish(),
    onboardingCompletedAt: isoTimestamp.nullish(),
  })
  .transform(({ onboardingCompletedAt, ...rest }) => ({
    ...rest,
    ...(onboardingCompletedAt && !rest.setupCompletedAt ? { setupCompletedAt: onboardingCompletedAt } : {}),
  }));
const SETUP_FIELDS = ["version", "bootstrapSeededAt", "setupCompletedAt", "onboardingCompletedAt"];
const globalShape = z.looseObject({ workspaces: z.record(z.string(), setupShape) });
const attestedShape = z.looseObject({
  attestedAtMs: z.number().int().nonnegative(),
  generatedHashes: z.record(z.string(), z.string().regex(/^[0-9a-f]{64}$/i, "not a hex sha256")),
});
type SetupFields = { bootstrapSeededAt?: string | null; setupCompletedAt?: string | null };

/** Field paths of `raw` (a parsed legacy file) that its shape does not define. */
function unknownFields(kind: LegacyWorkspaceStateKind, raw: Record<string, unknown>): string[] {
  const extra = (value: unknown, known: readonly string[], prefix: string) =>
    Object.keys((value ?? {}) as object)
      .filter((k) => !known.includes(k))
      .map((k) => `${prefix}${k}`);
  if (kind === "attestation") return extra(raw, ["attestedAtMs", "generatedHashes"], "");
  if (kind === "workspace-state") return extra(raw, SETUP_FIELDS, "");
  const workspaces = (raw.workspaces ?? {}) as Record<string, unknown>;
  return [
    ...extra(raw, ["workspaces"], ""),
    ...Object.entries(workspaces).flatMap(([ws, entry]) => extra(entry, SETUP_FIELDS, `workspaces[${JSON.stringify(ws)}].`)),
  ];
}

export type LegacyWorkspaceStateKind = "global-state" | "workspace-state" | "attestation";

export interface LegacyWorkspaceStateFile {
  /** Absolute path of the legacy file. */
  path: string;
  kind: LegacyWorkspaceStateKind;
  /** The workspace the file belongs to (absent for the global file, which names its own). */
  workspaceDir?: string;
}

export interface LegacyImportReport {
  /** One line per imported record: "<file>: <what> for <workspace>". */
  imported: string[];
  /** Legacy files deleted after their content was verified in the database. */
  removed: string[];
  /** Files that were kept, and why; each names the file and what to do. */
  problems: string[];
}

export interface LegacyWorkspaceStateOptions {
  stateDir: string;
  /** Workspaces to look in for `.openclaw/` sidecars (every configured agent's workspace). */
  workspaceDirs: readonly string[];
  /** An open state database to use instead of opening (and closing) one. Import only. */
  db?: StateDb;
}

/** Lists the legacy workspace-state files present, without changing anything (doctor's report mode). */
export function detectLegacyWorkspaceState(options: Omit<LegacyWorkspaceStateOptions, "db">): LegacyWorkspaceStateFile[] {
  const found: LegacyWorkspaceStateFile[] = [];
  const global = path.join(options.stateDir, "workspace-state.json");
  if (existsSync(global)) found.push({ path: global, kind: "global-state" });
  for (const ws of new Set(options.workspaceDirs.map((d) => path.resolve(d)))) {
    const state = path.join(ws, ".openclaw", "workspace-state.json");
    const attested = path.join(ws, ".openclaw", ".attested");
    if (existsSync(state)) found.push({ path: state, kind: "workspace-state", workspaceDir: ws });
    if (existsSync(attested)) found.push({ path: attested, kind: "attestation", workspaceDir: ws });
  }
  return found;
}

function describeZodError(err: z.ZodError): string {
  return err.issues.map((i) => `${i.path.length ? i.path.join(".") : "(root)"}: ${i.message}`).join("; ");
}

type Parsed<T> = { ok: true; value: T; unknown: string[] } | { ok: false; problem: string };

async function parseFile<T>(file: string, kind: LegacyWorkspaceStateKind, shape: z.ZodType<T>): Promise<Parsed<T>> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(file, "utf8"));
  } catch (err) {
    return { ok: false, problem: `${file}: cannot read it as JSON (${(err as Error).message}); fix or delete it by hand.` };
  }
  const parsed = shape.safeParse(raw);
  if (!parsed.success) {
    return { ok: false, problem: `${file}: unexpected content (${describeZodError(parsed.error)}); fix or delete it by hand.` };
  }
  return { ok: true, value: parsed.data, unknown: unknownFields(kind, raw as Record<string, unknown>) };
}

/** Whether a verified source may go: only when every field in it was understood; else reported and kept. */
function understoodWhole(file: string, parsed: { unknown: string[] }, report: LegacyImportReport): boolean {
  if (parsed.unknown.length === 0) return true;
  report.problems.push(
    `${file}: holds fields this version does not understand (${parsed.unknown.join(", ")}); what it understood was imported, the file was kept. Check it and delete it by hand.`,
  );
  return false;
}

function mergeSetup(db: StateDb, ws: string, legacy: SetupFields): boolean {
  const current = getWorkspaceSetupState(db, ws);
  const patch: Partial<WorkspaceSetupState> = {};
  if (legacy.bootstrapSeededAt && !current?.bootstrapSeededAt) patch.bootstrapSeededAt = new Date(legacy.bootstrapSeededAt).toISOString();
  if (legacy.setupCompletedAt && !current?.setupCompletedAt) patch.setupCompletedAt = new Date(legacy.setupCompletedAt).toISOString();
  if (Object.keys(patch).length) updateWorkspaceSetupState(db, ws, patch);
  return Object.keys(patch).length > 0;
}

function setupVerified(db: StateDb, ws: string, legacy: SetupFields): boolean {
  const stored = getWorkspaceSetupState(db, ws);
  if (legacy.bootstrapSeededAt && !stored?.bootstrapSeededAt) return false;
  if (legacy.setupCompletedAt && !stored?.setupCompletedAt) return false;
  return true;
}

async function removeSource(file: string, report: LegacyImportReport): Promise<void> {
  try {
    await rm(file, { force: true });
    report.removed.push(file);
  } catch (err) {
    report.problems.push(`${file}: imported, but could not be removed (${(err as Error).message}); delete it by hand.`);
    return;
  }
  const parent = path.dirname(file);
  if (path.basename(parent) === ".openclaw") await rmdir(parent).catch(() => undefined); // only if now empty
}

/**
 * Imports the legacy workspace-state JSON and `.attested` sidecar files (shapes in the file header)
 * into `<stateDir>/state/openclaw.sqlite`, verifies the stored rows, then deletes each source (and
 * an emptied `<workspace>/.openclaw/` folder). Idempotent: a second run finds nothing to do.
 * Workspaces named in the global file are imported even when they are not in `workspaceDirs`.
 */
export async function importLegacyWorkspaceState(options: LegacyWorkspaceStateOptions): Promise<LegacyImportReport> {
  const report: LegacyImportReport = { imported: [], removed: [], problems: [] };
  const files = detectLegacyWorkspaceState(options);
  if (!files.length) return report;
  const db = options.db ?? openStateDb(options.stateDir);
  try {
    for (const file of files) {
      if (file.kind === "global-state") {
        const parsed = await parseFile(file.path, file.kind, globalShape);
        if (!parsed.ok) {
          report.problems.push(parsed.problem);
          continue;
        }
        const entries = Object.entries(parsed.value.workspaces);
        const relative = entries.filter(([ws]) => !path.isAbsolute(ws)).map(([ws]) => ws);
        if (relative.length) {
          report.problems.push(
            `${file.path}: workspace paths must be absolute (${relative.join(", ")}); fix them or delete the file by hand.`,
          );
          continue;
        }
        db.transaction(() => {
          for (const [ws, legacy] of entries) {
            if (mergeSetup(db, path.resolve(ws), legacy)) report.imported.push(`${file.path}: setup state for ${path.resolve(ws)}`);
          }
        }).immediate();
        const unverified = entries.filter(([ws, legacy]) => !setupVerified(db, path.resolve(ws), legacy)).map(([ws]) => ws);
        if (unverified.length) {
          report.problems.push(`${file.path}: setup state for ${unverified.join(", ")} did not verify in the database; file kept.`);
          continue;
        }
        if (understoodWhole(file.path, parsed, report)) await removeSource(file.path, report);
      } else if (file.kind === "workspace-state") {
        const ws = file.workspaceDir!;
        const parsed = await parseFile(file.path, file.kind, setupShape);
        if (!parsed.ok) {
          report.problems.push(parsed.problem);
          continue;
        }
        if (mergeSetup(db, ws, parsed.value)) report.imported.push(`${file.path}: setup state for ${ws}`);
        if (!setupVerified(db, ws, parsed.value)) {
          report.problems.push(`${file.path}: setup state did not verify in the database; file kept.`);
          continue;
        }
        if (understoodWhole(file.path, parsed, report)) await removeSource(file.path, report);
      } else {
        const ws = file.workspaceDir!;
        const parsed = await parseFile(file.path, file.kind, attestedShape);
        if (!parsed.ok) {
          report.problems.push(parsed.problem);
          continue;
        }
        const legacy = parsed.value;
        db.transaction(() => {
          const current = getWorkspaceAttestation(db, ws);
          if (!current || current.attestedAtMs < legacy.attestedAtMs) {
            putWorkspaceAttestation(db, ws, { attestedAtMs: legacy.attestedAtMs, generatedHashes: legacy.generatedHashes });
            report.imported.push(`${file.path}: attestation for ${ws}`);
          }
        }).immediate();
        const stored = getWorkspaceAttestation(db, ws);
        if (!stored || stored.attestedAtMs < legacy.attestedAtMs) {
          report.problems.push(`${file.path}: attestation did not verify in the database; file kept.`);
          continue;
        }
        if (understoodWhole(file.path, parsed, report)) await removeSource(file.path, report);
      }
    }
    return report;
  } finally {
    if (!options.db) db.close();
  }
}
