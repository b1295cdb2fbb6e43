// Rows of the workspace tables (migration 1). Keys are absolute workspace paths as given
// (path.resolve, no realpath: a vanished workspace has nothing to resolve).
import path from "node:path";
import type { StateDb } from "./db.js";

/** Setup progress of one workspace. Timestamps are ISO-8601 strings; null when not reached. */
export interface WorkspaceSetupState {
  /** When BOOTSTRAP.md was written (or first observed) for this workspace. */
  bootstrapSeededAt: string | null;
  /** When the first-run ritual finished (BOOTSTRAP.md deleted); BOOTSTRAP.md is never recreated after. */
  setupCompletedAt: string | null;
}

/** Proof that a workspace was seen intact: when, and the sha256 of files still equal to their templates. */
export interface WorkspaceAttestation {
  /** Epoch milliseconds of the observation. */
  attestedAtMs: number;
  /** File name (e.g. "AGENTS.md") -> hex sha256 of its content, for files byte-equal to the template. */
  generatedHashes: Record<string, string>;
}

function key(workspaceDir: string): string {
  return path.resolve(workspaceDir);
}

/** The stored setup state, or undefined when the workspace has no row. */
export function getWorkspaceSetupState(db: StateDb, workspaceDir: string): WorkspaceSetupState | undefined {
  const row = db
    .prepare<[string], { bootstrap_seeded_at: string | null; setup_completed_at: string | null }>(
      "SELECT bootstrap_seeded_at, setup_completed_at FROM workspace_setup WHERE workspace_dir = ?",
    )
    .get(key(workspaceDir));
  return row ? { bootstrapSeededAt: row.bootstrap_seeded_at, setupCompletedAt: row.setup_completed_at } : undefined;
}

/**
 * Upserts the setup state. Fields absent from `patch` keep their stored value; pass null to clear one.
 * Returns the state as stored afterwards.
 */
export function updateWorkspaceSetupState(
  db: StateDb,
  workspaceDir: string,
  patch: Partial<WorkspaceSetupState>,
  now: Date = new Date(),
): WorkspaceSetupState {
  const run = db.transaction(() => {
    const current = getWorkspaceSetupState(db, workspaceDir) ?? { bootstrapSeededAt: null, setupCompletedAt: null };
    const next: WorkspaceSetupState = {
      bootstrapSeededAt: patch.bootstrapSeededAt !== undefined ? patch.bootstrapSeededAt : current.bootstrapSeededAt,
      setupCompletedAt: patch.setupCompletedAt !== undefined ? patch.setupCompletedAt : current.setupCompletedAt,
    };
    db.prepare(
      `INSERT INTO workspace_setup (workspace_dir, bootstrap_seeded_at, setup_completed_at, updated_at)
       VALUES (?, ?, ?, ?)
       ON CONFLICT (workspace_dir) DO UPDATE SET
         bootstrap_seeded_at = excluded.bootstrap_seeded_at,
         setup_completed_at = excluded.setup_completed_at,
         updated_at = excluded.updated_at`,
    ).run(key(workspaceDir), next.bootstrapSeededAt, next.setupCompletedAt, now.toISOString());
    return next;
  });
  return run.immediate();
}

/** The stored attestation, or undefined. A row with unreadable hashes yields an empty hash map. */
export function getWorkspaceAttestation(db: StateDb, workspaceDir: string): WorkspaceAttestation | undefined {
  const row = db
    .prepare<[string], { attested_at_ms: number; generated_hashes: string }>(
      "SELECT attested_at_ms, generated_hashes FROM workspace_attestation WHERE workspace_dir = ?",
    )
    .get(key(workspaceDir));
  if (!row) return undefined;
  let generatedHashes: Record<string, string> = {};
  try {
    const parsed: unknown = JSON.parse(row.generated_hashes);
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) {
      generatedHashes = Object.fromEntries(Object.entries(parsed).filter((e): e is [string, string] => typeof e[1] === "string"));
    }
  } catch {
    // keep the empty map: the timestamp alone still protects the workspace
  }
  return { attestedAtMs: row.attested_at_ms, generatedHashes };
}

/** Replaces the attestation of a workspace. */
export function putWorkspaceAttestation(db: StateDb, workspaceDir: string, attestation: WorkspaceAttestation): void {
  db.prepare(
    `INSERT INTO workspace_attestation (workspace_dir, attested_at_ms, generated_hashes) VALUES (?, ?, ?)
     ON CONFLICT (workspace_dir) DO UPDATE SET
       attested_at_ms = excluded.attested_at_ms, generated_hashes = excluded.generated_hashes`,
  ).run(key(workspaceDir), Math.floor(attestation.attestedAtMs), JSON.stringify(attestation.generatedHashes));
}

/**
 * Deletes the attestation only if it still has the given timestamp (so a concurrent refresh is not
 * lost). Without `expectedAttestedAtMs` it deletes unconditionally. Returns whether a row went away.
 */
export function clearWorkspaceAttestation(db: StateDb, workspaceDir: string, expectedAttestedAtMs?: number): boolean {
  const result =
    expectedAttestedAtMs === undefined
      ? db.prepare("DELETE FROM workspace_attestation WHERE workspace_dir = ?").run(key(workspaceDir))
      : db
          .prepare("DELETE FROM workspace_attestation WHERE workspace_dir = ? AND attested_at_ms = ?")
          .run(key(workspaceDir), Math.floor(expectedAttestedAtMs));
  return result.changes > 0;
}

/** Removes both the setup state and the attestation of a workspace, in one transaction. */
export function clearWorkspaceRows(db: StateDb, workspaceDir: string): { setupCleared: boolean; attestationCleared: boolean } {
  return db
    .transaction(() => {
      const setup = db.prepare("DELETE FROM workspace_setup WHERE workspace_dir = ?").run(key(workspaceDir));
      const att = db.prepare("DELETE FROM workspace_attestation WHERE workspace_dir = ?").run(key(workspaceDir));
      return { setupCleared: setup.changes > 0, attestationCleared: att.changes > 0 };
    })
    .immediate();
}
