import { mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ConfigReloadReport } from "../tools/index.js";
import { ConfigReloader } from "./config-reload.js";
import { planReload } from "./reload-plan.js";

describe("planReload", () => {
  it("applies agents and each changed channel live, and keeps gateway.* and plugins for a restart", () => {
    const running = {
      agents: { model: "a" },
      channels: { telegram: { allowFrom: ["1"] }, slack: {} },
      gateway: { port: 1, bind: "loopback" },
      plugins: {},
    };
    const next = {
      agents: { model: "b" },
      channels: { telegram: { allowFrom: ["1", "2"] }, slack: {} },
      gateway: { port: 2, bind: "loopback" },
      plugins: { load: {} },
    };
    const plan = planReload(running, next);
    expect(plan.applied).toEqual(["agents", "channels.telegram"]);
    expect(plan.needsRestart).toEqual(["gateway.port", "plugins"]);
    expect(plan.live.gateway).toEqual({ port: 1, bind: "loopback" });
    expect(plan.live.plugins).toEqual({});
    expect(plan.live.agents).toEqual({ model: "b" });
    expect(planReload(running, structuredClone(running))).toMatchObject({ applied: [], needsRestart: [] });
  });
});

describe("ConfigReloader", () => {
  let dir: string;
  let file: string;
  let reloader: ConfigReloader | undefined;
  const warnings: string[] = [];
  const log = { info: () => undefined, warn: (m: string) => void warnings.push(m), error: (m: string) => void warnings.push(m) };
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), "oc-reload-"));
    file = path.join(dir, "openclaw.json");
    writeFileSync(file, "{}");
    warnings.length = 0;
  });
  afterEach(() => {
    reloader?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("reloads once after a burst of writes, with the last content", async () => {
    const loads: string[] = [];
    let applied!: (value: unknown) => void;
    const appliedOnce = new Promise((resolve) => (applied = resolve));
    reloader = new ConfigReloader({
      file,
      debounceMs: 150,
      load: async () => {
        const text = readFileSync(file, "utf8");
        loads.push(text);
        return JSON.parse(text);
      },
      apply: async (next): Promise<ConfigReloadReport> => {
        applied(next);
        return { outcome: "applied", applied: ["agents"], needsRestart: [] };
      },
      log,
    });
    reloader.start();
    for (let i = 1; i <= 5; i++) writeFileSync(file, JSON.stringify({ n: i }));
    writeFileSync(path.join(dir, "openclaw.json.bak"), "{}"); // a neighbour: ignored
    expect(await appliedOnce).toEqual({ n: 5 });
    // A reload asked for now runs after the one above; no reload ever saw a write of the burst but the last.
    await reloader.reloadNow();
    expect(new Set(loads)).toEqual(new Set([JSON.stringify({ n: 5 })]));
  });

  it("keeps the running config when the file is invalid or gone", async () => {
    let applies = 0;
    reloader = new ConfigReloader({
      file,
      load: async () => {
        throw new Error(`Invalid config in ${file}: agents.defaults.timeoutSeconds: expected number`);
      },
      apply: async () => {
        applies++;
        return { outcome: "applied", applied: [], needsRestart: [] };
      },
      log,
    });
    const invalid = await reloader.reloadNow();
    expect(invalid.outcome).toBe("invalid");
    expect(invalid.problems).toContain("agents.defaults.timeoutSeconds");
    expect(warnings[0]).toContain("keeps running on the previous config");

    unlinkSync(file);
    const gone = await reloader.reloadNow();
    expect(gone.outcome).toBe("invalid");
    expect(gone.problems).toContain(`${file} is gone`);
    expect(applies).toBe(0);
  });
});
