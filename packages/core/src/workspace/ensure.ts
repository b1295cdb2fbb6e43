// Seeding a workspace, the BOOTSTRAP.md lifecycle and the vanished-workspace guard.
import { createHash } from "node:crypto";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { UserError } from "../config/index.js";
import {
  clearWorkspaceAttestation,
  clearWorkspaceRows,
  getWorkspaceAttestation,
  getWorkspaceSetupState,
  openStateDb,
  putWorkspaceAttestation,
  stateDbPath,
  updateWorkspaceSetupState,
  type StateDb,
  type WorkspaceSetupState,
} from "../state/index.js";
import { BOOTSTRAP_FILE_NAME, TEMPLATE_FILE_NAMES } from "./bootstrap-files.js";
import { gitInitIfAvailable } from "./git.js";
import { loadWorkspaceTemplates, TEMPLATED_FILE_NAMES } from "./templates.js";

/** How long an attestation protects a workspace from being silently reseeded: 24 h. */
export const WORKSPACE_ATTESTATION_RECENT_MS = 24 * 60 * 60 * 1000;

/**
 * - pending: BOOTSTRAP.md exists and setup is not completed (add FIRST_RUN_GUIDANCE to the prompt);
 * - complete: the first-run ritual finished (BOOTSTRAP.md was deleted) and it is never reseeded;
 * - none: no BOOTSTRAP.md was ever seeded here (an existing or pre-seeded workspace).
 */
export type BootstrapStatus = "pending" | "complete" | "none";

/**
 * Thrown by {@link ensureWorkspace} when a workspace seen intact in the last 24 h (or, after a clock
 * rollback, "in the future") is now missing or has none of its bootstrap files left.
 */
export class WorkspaceVanishedError extends UserError {
  readonly code = "WORKSPACE_VANISHED";
  constructor(
    readonly workspaceDir: string,
    readonly attestedAtMs: number,
    readonly stateDbFile: string,
    readonly reason: "missing" | "wiped",
  ) {
    super(
      `The workspace ${workspaceDir} ${reason === "missing" ? "no longer exists" : "has lost all of its bootstrap files"}, ` +
        `but it was last seen intact at ${new Date(attestedAtMs).toISOString()} (recorded in ${stateDbFile}). ` +
        `OpenClaw will not silently recreate it with a first-run BOOTSTRAP.md.\n` +
        `- To keep your agent's memory and persona, restore the folder from a backup or from git ` +
        `(for example \`git clone <your-remote> ${workspaceDir}\`), then start again.\n` +
        `- To really start over, run \`openclaw setup --reset-workspace-state\` ` +
        `(with the same --agent/--workspace), which forgets this workspace's setup state and creates fresh files.`,
    );
    this.name = "WorkspaceVanishedError";
  }
}

export interface EnsureWorkspaceOptions {
  /** The workspace folder; created when missing. */
  workspaceDir: string;
  /** State root; the setup state lives in `<stateDir>/state/openclaw.sqlite`. */
  stateDir: string;
  /** `agents.defaults.skipBootstrap`: when true nothing is created, checked or recorded. Default false. */
  skipBootstrap?: boolean;
  /** Run `git init` in a brand-new workspace when git is installed. Default true. */
  git?: boolean;
  /** Clock, for tests. Default Date.now. */
  now?: () => number;
  /** An open state database to use instead of opening (and closing) one. */
  db?: StateDb;
}

export interface EnsureWorkspaceResult {
  workspaceDir: string;
  /** True when skipBootstrap stopped everything. */
  skipped: boolean;
  /** The folder held nothing but dot-entries and no setup state was recorded for it. */
  brandNew: boolean;
  /** File names written by this call (existing files are never overwritten). */
  created: string[];
  gitInitialized: boolean;
  bootstrapStatus: BootstrapStatus;
  setupState: WorkspaceSetupState;
}

async function listEntries(dir: string): Promise<string[] | undefined> {
  try {
    return await readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
}

async function writeIfMissing(file: string, content: Buffer): Promise<boolean> {
  try {
    await writeFile(file, content, { flag: "wx" });
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw err;
  }
}

function statusOf(state: WorkspaceSetupState, bootstrapExists: boolean): BootstrapStatus {
  if (state.setupCompletedAt) return "complete";
  return bootstrapExists ? "pending" : "none";
}

/**
 * Makes sure an agent workspace exists and carries its bootstrap files. Called by `openclaw setup`
 * and at gateway start.
 * 1. Guard: if the workspace was attested less than 24 h ago (or the attestation lies in the
 *    future, i.e. the clock went back) and the folder is now gone or holds none of the seven
 *    templated files, throws {@link WorkspaceVanishedError}. An older attestation is cleared and
 *    seeding proceeds.
 * 2. Writes AGENTS, SOUL, TOOLS, IDENTITY, USER and HEARTBEAT from templates when missing (never
 *    overwriting). BOOTSTRAP.md is written only into a brand-new workspace: nothing but dot-entries
 *    in it and no setup state recorded, so once deleted it never comes back.
 * 3. Records `bootstrapSeededAt` when BOOTSTRAP.md is first seen, and `setupCompletedAt` when it has
 *    gone after that.
 * 4. Runs `git init` in a brand-new workspace when git is available (option `git`).
 * 5. Stores a fresh attestation: now, plus the sha256 of files still byte-equal to their templates.
 */
export async function ensureWorkspace(options: EnsureWorkspaceOptions): Promise<EnsureWorkspaceResult> {
  const dir = path.resolve(options.workspaceDir);
  if (options.skipBootstrap) {
    const entries = (await listEntries(dir)) ?? [];
    return {
      workspaceDir: dir,
      skipped: true,
      brandNew: false,
      created: [],
      gitInitialized: false,
      bootstrapStatus: entries.includes(BOOTSTRAP_FILE_NAME) ? "pending" : "none",
      setupState: { bootstrapSeededAt: null, setupCompletedAt: null },
    };
  }
  const now = options.now ?? Date.now;
  const templates = await loadWorkspaceTemplates();
  const db = options.db ?? openStateDb(options.stateDir);
  try {
    const before = await listEntries(dir);
    guardAgainstVanishedWorkspace(db, dir, before, now(), stateDbPath(options.stateDir));

    let state = getWorkspaceSetupState(db, dir) ?? { bootstrapSeededAt: null, setupCompletedAt: null };
    const brandNew = !state.bootstrapSeededAt && !state.setupCompletedAt && (before ?? []).every((name) => name.startsWith("."));

    await mkdir(dir, { recursive: true, mode: 0o700 }); // it will hold personal memory
    const created: string[] = [];
    for (const name of TEMPLATE_FILE_NAMES) {
      if (await writeIfMissing(path.join(dir, name), templates.get(name)!)) created.push(name);
    }
    if (brandNew && (await writeIfMissing(path.join(dir, BOOTSTRAP_FILE_NAME), templates.get(BOOTSTRAP_FILE_NAME)!))) {
      created.push(BOOTSTRAP_FILE_NAME);
    }

    const after = new Set(await readdir(dir));
    const bootstrapExists = after.has(BOOTSTRAP_FILE_NAME);
    const stamp = new Date(now()).toISOString();
    if (bootstrapExists && !state.bootstrapSeededAt && !state.setupCompletedAt) {
      state = updateWorkspaceSetupState(db, dir, { bootstrapSeededAt: stamp }, new Date(now()));
    } else if (!bootstrapExists && state.bootstrapSeededAt && !state.setupCompletedAt) {
      state = updateWorkspaceSetupState(db, dir, { setupCompletedAt: stamp }, new Date(now()));
    }

    const gitInitialized = brandNew && options.git !== false ? await gitInitIfAvailable(dir) : false;

    const generatedHashes: Record<string, string> = {};
    for (const name of TEMPLATED_FILE_NAMES) {
      if (!after.has(name)) continue;
      const template = templates.get(name)!;
      const current = await readFile(path.join(dir, name)).catch(() => undefined);
      if (current?.equals(template)) {
        generatedHashes[name] = createHash("sha256").update(template).digest("hex");
      }
    }
    putWorkspaceAttestation(db, dir, { attestedAtMs: now(), generatedHashes });

    return {
      workspaceDir: dir,
      skipped: false,
      brandNew,
      created,
      gitInitialized,
      bootstrapStatus: statusOf(state, bootstrapExists),
      setupState: state,
    };
  } finally {
    if (!options.db) db.close();
  }
}

function guardAgainstVanishedWorkspace(db: StateDb, dir: string, entries: string[] | undefined, nowMs: number, dbFile: string): void {
  const attestation = getWorkspaceAttestation(db, dir);
  if (!attestation) return;
  const age = nowMs - attestation.attestedAtMs;
  // age < 0: the clock went back. That is no evidence the workspace is old, so it stays protected.
  if (age > WORKSPACE_ATTESTATION_RECENT_MS) {
    clearWorkspaceAttestation(db, dir, attestation.attestedAtMs);
    return;
  }
  if (entries === undefined) throw new WorkspaceVanishedError(dir, attestation.attestedAtMs, dbFile, "missing");
  const present = new Set(entries);
  if (!TEMPLATED_FILE_NAMES.some((name) => present.has(name))) {
    throw new WorkspaceVanishedError(dir, attestation.attestedAtMs, dbFile, "wiped");
  }
}

/**
 * Forgets a workspace's setup state and attestation (`openclaw setup --reset-workspace-state`), so
 * the next {@link ensureWorkspace} treats it as new (BOOTSTRAP.md is seeded again if the folder is
 * empty). Files in the workspace are not touched.
 */
export function resetWorkspaceState(options: { stateDir: string; workspaceDir: string; db?: StateDb }): {
  setupCleared: boolean;
  attestationCleared: boolean;
} {
  const db = options.db ?? openStateDb(options.stateDir);
  try {
    return clearWorkspaceRows(db, path.resolve(options.workspaceDir));
  } finally {
    if (!options.db) db.close();
  }
}
