import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { getWorkspaceAttestation, getWorkspaceSetupState, putWorkspaceAttestation, withStateDb } from "../state/index.js";
import { detectLegacyWorkspaceState, importLegacyWorkspaceState } from "./index.js";

let root: string;
let stateDir: string;
let wsA: string;
let wsB: string;
beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), "openclaw-legacy-"));
  stateDir = path.join(root, "state");
  wsA = path.join(root, "ws-a");
  wsB = path.join(root, "ws-b");
  for (const d of [stateDir, path.join(wsA, ".openclaw"), path.join(wsB, ".openclaw")]) mkdirSync(d, { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const HASH = "a".repeat(64);
const json = (file: string, value: unknown): void => writeFileSync(file, JSON.stringify(value));

describe("legacy workspace state import", () => {
  it("imports every shape, verifies, removes the sources, and is idempotent", async () => {
    const elsewhere = path.join(root, "elsewhere");
    json(path.join(stateDir, "workspace-state.json"), {
      workspaces: {
        [wsA]: { bootstrapSeededAt: "2026-01-01T00:00:00.000Z" },
        [elsewhere]: { bootstrapSeededAt: "2026-01-02T00:00:00Z", setupCompletedAt: "2026-01-03T00:00:00Z" },
      },
    });
    json(path.join(wsA, ".openclaw", "workspace-state.json"), { setupCompletedAt: "2026-02-01T00:00:00.000Z" });
    json(path.join(wsA, ".openclaw", ".attested"), { attestedAtMs: 1234, generatedHashes: { "AGENTS.md": HASH } });
    json(path.join(wsB, ".openclaw", ".attested"), { attestedAtMs: 99, generatedHashes: {} });

    const workspaceDirs = [wsA, wsB];
    expect(detectLegacyWorkspaceState({ stateDir, workspaceDirs }).map((f) => f.kind)).toEqual([
      "global-state",
      "workspace-state",
      "attestation",
      "attestation",
    ]);
    const report = await importLegacyWorkspaceState({ stateDir, workspaceDirs });
    expect(report.problems).toEqual([]);
    expect(report.imported).toHaveLength(5);
    expect(report.removed).toHaveLength(4);
    for (const file of report.removed) expect(existsSync(file)).toBe(false);
    expect(existsSync(path.join(wsA, ".openclaw"))).toBe(false); // emptied folder removed

    withStateDb(stateDir, (db) => {
      expect(getWorkspaceSetupState(db, wsA)).toEqual({
        bootstrapSeededAt: "2026-01-01T00:00:00.000Z",
        setupCompletedAt: "2026-02-01T00:00:00.000Z",
      });
      expect(getWorkspaceSetupState(db, elsewhere)).toEqual({
        bootstrapSeededAt: "2026-01-02T00:00:00.000Z",
        setupCompletedAt: "2026-01-03T00:00:00.000Z",
      });
      expect(getWorkspaceAttestation(db, wsA)).toEqual({ attestedAtMs: 1234, generatedHashes: { "AGENTS.md": HASH } });
      expect(getWorkspaceAttestation(db, wsB)?.attestedAtMs).toBe(99);
    });

    expect(detectLegacyWorkspaceState({ stateDir, workspaceDirs })).toEqual([]);
    expect(await importLegacyWorkspaceState({ stateDir, workspaceDirs })).toEqual({ imported: [], removed: [], problems: [] });
  });

  it("keeps a newer attestation already in the database but still removes the verified source", async () => {
    withStateDb(stateDir, (db) => putWorkspaceAttestation(db, wsA, { attestedAtMs: 5000, generatedHashes: {} }));
    json(path.join(wsA, ".openclaw", ".attested"), { attestedAtMs: 10, generatedHashes: {} });
    const report = await importLegacyWorkspaceState({ stateDir, workspaceDirs: [wsA] });
    expect(report).toMatchObject({ imported: [], problems: [] });
    expect(report.removed).toHaveLength(1);
    expect(withStateDb(stateDir, (db) => getWorkspaceAttestation(db, wsA))?.attestedAtMs).toBe(5000);
  });

  it("keeps and reports files it cannot parse or that have the wrong shape", async () => {
    const broken = path.join(wsA, ".openclaw", "workspace-state.json");
    writeFileSync(broken, "{ not json");
    const wrong = path.join(wsB, ".openclaw", ".attested");
    json(wrong, { attestedAtMs: "yesterday", generatedHashes: {} });
    const relative = path.join(stateDir, "workspace-state.json");
    json(relative, { workspaces: { "some/relative": {} } });
    const report = await importLegacyWorkspaceState({ stateDir, workspaceDirs: [wsA, wsB] });
    expect(report.imported).toEqual([]);
    expect(report.removed).toEqual([]);
    expect(report.problems).toHaveLength(3);
    expect(report.problems.join("\n")).toContain(broken);
    expect(report.problems.join("\n")).toContain(`${wrong}: unexpected content (attestedAtMs:`);
    expect(report.problems.join("\n")).toContain("must be absolute");
    for (const file of [broken, wrong, relative]) expect(existsSync(file)).toBe(true);
  });

  it("imports onboardingCompletedAt (older releases' name) as the completion date and removes the file", async () => {
    const file = path.join(wsA, ".openclaw", "workspace-state.json");
    json(file, { version: 1, bootstrapSeededAt: "2025-06-01T08:00:00.000Z", onboardingCompletedAt: "2025-06-02T09:30:00.000Z" });
    const report = await importLegacyWorkspaceState({ stateDir, workspaceDirs: [wsA] });
    expect(report.problems).toEqual([]);
    expect(report.removed).toEqual([file]);
    expect(withStateDb(stateDir, (db) => getWorkspaceSetupState(db, wsA))).toEqual({
      bootstrapSeededAt: "2025-06-01T08:00:00.000Z",
      setupCompletedAt: "2025-06-02T09:30:00.000Z",
    });
  });

  it("never deletes a file holding fields it does not understand, but imports what it does", async () => {
    const state = path.join(wsA, ".openclaw", "workspace-state.json");
    json(state, { setupCompletedAt: "2026-03-01T00:00:00.000Z", tourSeenAt: "2026-03-02T00:00:00.000Z" });
    const attested = path.join(wsB, ".openclaw", ".attested");
    json(attested, { attestedAtMs: 77, generatedHashes: {}, signer: "old-release" });
    const global = path.join(stateDir, "workspace-state.json");
    json(global, { workspaces: { [wsB]: { bootstrapSeededAt: "2026-01-05T00:00:00.000Z", theme: "dark" } } });

    const report = await importLegacyWorkspaceState({ stateDir, workspaceDirs: [wsA, wsB] });
    expect(report.removed).toEqual([]);
    for (const file of [state, attested, global]) expect(existsSync(file)).toBe(true);
    const problems = report.problems.join("\n");
    expect(problems).toContain(`${state}: holds fields this version does not understand (tourSeenAt)`);
    expect(problems).toContain(`${attested}: holds fields this version does not understand (signer)`);
    expect(problems).toContain(`${global}: holds fields this version does not understand (workspaces[${JSON.stringify(wsB)}].theme)`);
    withStateDb(stateDir, (db) => {
      expect(getWorkspaceSetupState(db, wsA)?.setupCompletedAt).toBe("2026-03-01T00:00:00.000Z");
      expect(getWorkspaceSetupState(db, wsB)?.bootstrapSeededAt).toBe("2026-01-05T00:00:00.000Z");
      expect(getWorkspaceAttestation(db, wsB)?.attestedAtMs).toBe(77);
    });
  });
});
