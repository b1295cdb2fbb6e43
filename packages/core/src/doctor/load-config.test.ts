import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resolvePaths } from "../config/index.js";
import { configForDoctor } from "./load-config.js";
import type { DoctorContext } from "./types.js";

let home: string;
beforeEach(() => {
  home = mkdtempSync(path.join(tmpdir(), "openclaw-doctor-config-"));
  mkdirSync(path.join(home, ".openclaw"), { mode: 0o700 });
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const writeModel = (model: string) =>
  writeFileSync(path.join(home, ".openclaw", "openclaw.json"), JSON.stringify({ agents: { defaults: { model } } }), { mode: 0o600 });
const context = (): DoctorContext => ({ paths: resolvePaths({ home, env: {} }), fix: false });

describe("the config doctor's later steps work with", () => {
  it("is read once per run, and again by the next run (the fix after an interactive report)", async () => {
    writeModel("local/one");
    const run = context();
    expect((await configForDoctor(run)).config.agents.defaults.model).toBe("local/one");
    writeModel("local/two");
    expect((await configForDoctor(run)).config.agents.defaults.model).toBe("local/one");
    const next = context();
    expect((await configForDoctor(next)).config.agents.defaults.model).toBe("local/two");
  });

  it("falls back to the defaults for an invalid file", async () => {
    writeFileSync(path.join(home, ".openclaw", "openclaw.json"), "{ agents: 42 }", { mode: 0o600 });
    const { usedDefaults } = await configForDoctor(context());
    expect(usedDefaults).toBe(true);
  });
});
