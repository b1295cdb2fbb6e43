import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { UserError } from "../config/index.js";
import { getWorkspaceAttestation, getWorkspaceSetupState, withStateDb } from "../state/index.js";
import {
  ensureWorkspace,
  resetWorkspaceState,
  WORKSPACE_ATTESTATION_RECENT_MS,
  WorkspaceVanishedError,
  workspaceTemplatesDir,
  type EnsureWorkspaceOptions,
} from "./index.js";

const SIX = ["AGENTS.md", "SOUL.md", "TOOLS.md", "IDENTITY.md", "USER.md", "HEARTBEAT.md"];
const HOUR = 60 * 60 * 1000;

let root: string;
let stateDir: string;
let ws: string;
let clock: number;
beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), "openclaw-ensure-"));
  stateDir = path.join(root, "state");
  ws = path.join(root, "workspace");
  clock = Date.parse("2026-06-01T12:00:00Z");
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function ensure(extra: Partial<EnsureWorkspaceOptions> = {}) {
  return ensureWorkspace({ workspaceDir: ws, stateDir, git: false, now: () => clock, ...extra });
}
const has = (name: string): boolean => existsSync(path.join(ws, name));
const template = (name: string): string => readFileSync(path.join(workspaceTemplatesDir(), name), "utf8");

function hasGit(): boolean {
  try {
    execFileSync("git", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

describe("seeding", () => {
  it("writes the six templates and BOOTSTRAP.md into a brand-new workspace", async () => {
    const result = await ensure();
    expect(result.brandNew).toBe(true);
    expect(result.created).toEqual([...SIX, "BOOTSTRAP.md"]);
    for (const name of [...SIX, "BOOTSTRAP.md"]) expect(readFileSync(path.join(ws, name), "utf8")).toBe(template(name));
    expect(result.bootstrapStatus).toBe("pending");
    expect(result.setupState.bootstrapSeededAt).toBe(new Date(clock).toISOString());
  });

  it("never overwrites an existing file and adds no BOOTSTRAP.md to a workspace with content", async () => {
    mkdirSync(ws);
    writeFileSync(path.join(ws, "SOUL.md"), "my own soul\n");
    const result = await ensure();
    expect(result.brandNew).toBe(false);
    expect(result.created).toEqual(SIX.filter((n) => n !== "SOUL.md"));
    expect(readFileSync(path.join(ws, "SOUL.md"), "utf8")).toBe("my own soul\n");
    expect(has("BOOTSTRAP.md")).toBe(false);
    expect(result.bootstrapStatus).toBe("none");
    const again = await ensure();
    expect(again.created).toEqual([]);
  });

  it("treats a folder of unrelated files as existing (no BOOTSTRAP.md) but one with only dot-entries as new", async () => {
    mkdirSync(ws);
    writeFileSync(path.join(ws, "notes.txt"), "x");
    expect((await ensure()).created).not.toContain("BOOTSTRAP.md");
    rmSync(ws, { recursive: true });
    resetWorkspaceState({ stateDir, workspaceDir: ws });
    mkdirSync(path.join(ws, ".git"), { recursive: true });
    expect((await ensure()).created).toContain("BOOTSTRAP.md");
  });

  it("creates nothing with skipBootstrap", async () => {
    const result = await ensure({ skipBootstrap: true });
    expect(result).toMatchObject({ skipped: true, created: [] });
    expect(existsSync(ws)).toBe(false);
    expect(existsSync(path.join(stateDir, "state", "openclaw.sqlite"))).toBe(false);
  });

  it.skipIf(!hasGit())("runs git init in a brand-new workspace only", async () => {
    const result = await ensure({ git: true });
    expect(result.gitInitialized).toBe(true);
    expect(existsSync(path.join(ws, ".git"))).toBe(true);
    const other = path.join(root, "existing");
    mkdirSync(other);
    writeFileSync(path.join(other, "AGENTS.md"), "mine");
    const second = await ensureWorkspace({ workspaceDir: other, stateDir, git: true });
    expect(second.gitInitialized).toBe(false);
    expect(existsSync(path.join(other, ".git"))).toBe(false);
  });

  it("attests the files still equal to their templates", async () => {
    await ensure();
    writeFileSync(path.join(ws, "USER.md"), "edited");
    clock += 1000;
    await ensure();
    const att = withStateDb(stateDir, (db) => getWorkspaceAttestation(db, ws))!;
    expect(att.attestedAtMs).toBe(clock);
    expect(Object.keys(att.generatedHashes).sort()).toEqual([...SIX, "BOOTSTRAP.md"].filter((n) => n !== "USER.md").sort());
    expect(att.generatedHashes["AGENTS.md"]).toBe(createHash("sha256").update(template("AGENTS.md")).digest("hex"));
  });
});

describe("BOOTSTRAP.md lifecycle", () => {
  it("records completion when BOOTSTRAP.md is deleted and never recreates it", async () => {
    await ensure();
    rmSync(path.join(ws, "BOOTSTRAP.md"));
    clock += HOUR;
    const done = await ensure();
    expect(done.bootstrapStatus).toBe("complete");
    expect(done.setupState.setupCompletedAt).toBe(new Date(clock).toISOString());
    expect(has("BOOTSTRAP.md")).toBe(false);
    // even if every other file is deleted later and the attestation has expired
    for (const name of SIX) rmSync(path.join(ws, name));
    clock += 2 * WORKSPACE_ATTESTATION_RECENT_MS;
    const later = await ensure();
    expect(later.created).toEqual(SIX);
    expect(has("BOOTSTRAP.md")).toBe(false);
    expect(later.bootstrapStatus).toBe("complete");
  });

  it("stays pending while BOOTSTRAP.md exists", async () => {
    await ensure();
    clock += HOUR;
    const again = await ensure();
    expect(again.bootstrapStatus).toBe("pending");
    expect(again.setupState.setupCompletedAt).toBeNull();
  });
});

describe("vanished workspace guard", () => {
  it("refuses to reseed a workspace attested within 24 h that has vanished", async () => {
    await ensure();
    rmSync(ws, { recursive: true });
    clock += 23 * HOUR;
    const error = await ensure().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WorkspaceVanishedError);
    expect(error).toBeInstanceOf(UserError);
    expect((error as WorkspaceVanishedError).code).toBe("WORKSPACE_VANISHED");
    const message = (error as Error).message;
    expect(message).toContain(ws);
    expect(message).toContain("restore the folder from a backup or from git");
    expect(message).toContain("openclaw setup --reset-workspace-state");
    expect(existsSync(ws)).toBe(false);
  });

  it("refuses when the folder is there but wiped of every template file", async () => {
    await ensure();
    for (const name of readdirSync(ws)) rmSync(path.join(ws, name), { recursive: true });
    writeFileSync(path.join(ws, "stray.txt"), "x");
    await expect(ensure()).rejects.toThrow(/has lost all of its bootstrap files/);
    expect(has("AGENTS.md")).toBe(false);
  });

  it("accepts a workspace with at least one template file left", async () => {
    await ensure();
    for (const name of [...SIX.slice(1), "BOOTSTRAP.md"]) rmSync(path.join(ws, name));
    const result = await ensure();
    expect(result.created).toEqual(SIX.slice(1));
  });

  it("clears an expired attestation (> 24 h) and reseeds", async () => {
    await ensure();
    rmSync(ws, { recursive: true });
    clock += WORKSPACE_ATTESTATION_RECENT_MS + 1;
    const result = await ensure();
    expect(result.created).toEqual(SIX); // BOOTSTRAP.md was seeded before: never again
    expect(withStateDb(stateDir, (db) => getWorkspaceAttestation(db, ws))?.attestedAtMs).toBe(clock);
  });

  it("does not take a clock rollback as permission", async () => {
    await ensure();
    rmSync(ws, { recursive: true });
    clock -= 30 * 24 * HOUR;
    await expect(ensure()).rejects.toBeInstanceOf(WorkspaceVanishedError);
  });

  it("reset forgets setup state and attestation, so a fresh start seeds BOOTSTRAP.md again", async () => {
    await ensure();
    rmSync(ws, { recursive: true });
    expect(resetWorkspaceState({ stateDir, workspaceDir: ws })).toEqual({ setupCleared: true, attestationCleared: true });
    expect(withStateDb(stateDir, (db) => getWorkspaceSetupState(db, ws))).toBeUndefined();
    const result = await ensure();
    expect(result.created).toEqual([...SIX, "BOOTSTRAP.md"]);
  });
});
