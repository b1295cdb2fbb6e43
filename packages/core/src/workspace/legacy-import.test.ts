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
});
