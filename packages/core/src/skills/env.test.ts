import { describe, expect, it } from "vitest";
import { applySkillEnv, skillExecEnv, type SkillGating } from "./index.js";

const gating = (primaryEnv?: string): SkillGating => ({
  always: false,
  os: [],
  requires: { bins: [], anyBins: [], env: [], config: [] },
  ...(primaryEnv ? { primaryEnv } : {}),
});

describe("applySkillEnv", () => {
  it("sets entries env and apiKey->primaryEnv only where unset, and restores exactly that", () => {
    const env: NodeJS.ProcessEnv = { PRESET: "mine", EMPTY: "" };
    const config = {
      skills: {
        entries: {
          a: { env: { A_VAR: "1", PRESET: "theirs", EMPTY: "x", NUM: 3 }, apiKey: "key-a" },
          b: { apiKey: { source: "env", id: "PRESET" } },
          off: { env: { OFF_VAR: "no" } },
        },
      },
    };
    const restore = applySkillEnv(
      [
        { key: "a", gating: gating("A_KEY"), eligible: true },
        { key: "b", gating: gating("B_KEY"), eligible: true },
        { key: "off", eligible: false },
        { key: "none", eligible: true },
      ],
      config,
      env,
    );
    expect(env).toEqual({ PRESET: "mine", EMPTY: "", A_VAR: "1", A_KEY: "key-a", B_KEY: "mine" });
    env.A_VAR = "changed by the run";
    restore();
    expect(env).toEqual({ PRESET: "mine", EMPTY: "", A_VAR: "changed by the run" });
    restore();
    expect(env.PRESET).toBe("mine");
  });

  it("defaults to process.env", () => {
    const name = "OPENCLAW_SKILLS_TEST_VAR";
    delete process.env[name];
    const restore = applySkillEnv([{ key: "k" }], { skills: { entries: { k: { env: { [name]: "v" } } } } });
    expect(process.env[name]).toBe("v");
    restore();
    expect(process.env[name]).toBeUndefined();
  });
});

describe("skillExecEnv", () => {
  it("passes what each skill needs, from the gateway's environment first, and nothing else", () => {
    const gatewayEnv: NodeJS.ProcessEnv = { GITHUB_TOKEN: "gh-from-gateway", TELEGRAM_BOT_TOKEN: "123:tg", WEATHER_HOST: "gateway.local" };
    const needs = (env: string[], primaryEnv?: string): SkillGating => ({
      ...gating(primaryEnv),
      requires: { bins: [], anyBins: [], env, config: [] },
    });
    const config = {
      skills: {
        entries: {
          weather: { env: { WEATHER_HOST: "configured.local", WEATHER_UNITS: "metric" }, apiKey: "weather-key" },
        },
      },
    };
    const env = skillExecEnv(
      [
        { key: "github", gating: needs(["GITHUB_TOKEN"]) },
        { key: "weather", gating: needs([], "WEATHER_API_KEY") },
        { key: "missing", gating: needs(["NOWHERE_SET"]) },
      ],
      config,
      gatewayEnv,
    );
    expect(env).toEqual({
      GITHUB_TOKEN: "gh-from-gateway",
      WEATHER_HOST: "gateway.local",
      WEATHER_UNITS: "metric",
      WEATHER_API_KEY: "weather-key",
    });
  });
});
