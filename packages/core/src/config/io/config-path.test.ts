import { describe, expect, it } from "vitest";
import { UserError } from "../paths.js";
import { formatConfigPath, getAtPath, parseConfigPath, setAtPath, unsetAtPath } from "./index.js";

describe("parseConfigPath", () => {
  it.each([
    ["agents.defaults.model", ["agents", "defaults", "model"]],
    ['agents.entries["my.agent"].model', ["agents", "entries", "my.agent", "model"]],
    ["agents.entries['my.agent'].model", ["agents", "entries", "my.agent", "model"]],
    ["bindings[0].agentId", ["bindings", "0", "agentId"]],
    ["channels.telegram.accounts.main.botToken", ["channels", "telegram", "accounts", "main", "botToken"]],
    ['agents.defaults.models["openai/gpt-4o"].alias', ["agents", "defaults", "models", "openai/gpt-4o", "alias"]],
    ["agents.defaults.models.openai/gpt-4o", ["agents", "defaults", "models", "openai/gpt-4o"]],
    ['groups["*"].requireMention', ["groups", "*", "requireMention"]],
    ["matrix[1][2]", ["matrix", "1", "2"]],
    ['["a b"]', ["a b"]],
    ['a["say \\"hi\\""]', ["a", 'say "hi"']],
    ["  gateway.port  ", ["gateway", "port"]],
  ])("parses %s", (input, expected) => {
    expect(parseConfigPath(input)).toEqual(expected);
  });

  it.each(["", "a..b", ".a", "a.", "a[", "a[]", "a[x]", 'a["x"', 'a["x"y]', "a[0]b", "a b", 'a."b"', "a]", 'a[""]'])(
    "rejects %j with a UserError explaining the syntax",
    (input) => {
      let error: unknown;
      try {
        parseConfigPath(input);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(UserError);
      expect((error as Error).message).toMatch(/bindings\[0\]\.agentId/);
    },
  );

  it("round-trips through formatConfigPath", () => {
    const paths = ['agents.entries["my.agent"].model', "bindings[0].agentId", 'groups["a b"].x'];
    for (const p of paths) {
      const segments = parseConfigPath(p).map((s) => (/^\d+$/.test(s) ? Number(s) : s));
      expect(formatConfigPath(segments)).toBe(p);
    }
  });
});

describe("getAtPath", () => {
  const config = { bindings: [{ agentId: "ops" }], agents: { entries: { "my.agent": { model: "a/b" } } }, n: 0 };
  it("reads objects, arrays and bracketed keys", () => {
    expect(getAtPath(config, parseConfigPath("bindings[0].agentId"))).toBe("ops");
    expect(getAtPath(config, parseConfigPath('agents.entries["my.agent"].model'))).toBe("a/b");
    expect(getAtPath(config, ["n"])).toBe(0);
    expect(getAtPath(config, [])).toBe(config);
  });
  it("returns undefined for missing steps, scalars and inherited properties", () => {
    expect(getAtPath(config, ["bindings", "5"])).toBeUndefined();
    expect(getAtPath(config, ["bindings", "x"])).toBeUndefined();
    expect(getAtPath(config, ["n", "x"])).toBeUndefined();
    expect(getAtPath(config, ["agents", "toString"])).toBeUndefined();
    expect(getAtPath(config, ["nope", "deeper"])).toBeUndefined();
  });
});

describe("setAtPath", () => {
  it("creates intermediate objects and mutates in place", () => {
    const config: Record<string, unknown> = { agents: { defaults: { timeoutSeconds: 5 } } };
    const result = setAtPath(config, parseConfigPath("agents.defaults.model"), "openai/gpt-4o");
    expect(result).toBe(config);
    setAtPath(config, parseConfigPath('channels.telegram.accounts["main.bot"].botToken'), "t");
    expect(config).toEqual({
      agents: { defaults: { timeoutSeconds: 5, model: "openai/gpt-4o" } },
      channels: { telegram: { accounts: { "main.bot": { botToken: "t" } } } },
    });
  });

  it("indexes existing arrays with numeric keys and appends at the end", () => {
    const config: Record<string, unknown> = { bindings: [{ agentId: "a" }] };
    setAtPath(config, parseConfigPath("bindings[0].agentId"), "b");
    setAtPath(config, parseConfigPath("bindings[1]"), { agentId: "c" });
    expect(config).toEqual({ bindings: [{ agentId: "b" }, { agentId: "c" }] });
    expect(() => setAtPath(config, parseConfigPath("bindings[5]"), 1)).toThrow(/use index 2 to append/);
    expect(() => setAtPath(config, parseConfigPath("bindings.first"), 1)).toThrow(/bindings is a list/);
  });

  it("uses a plain object for numeric keys when nothing exists yet", () => {
    const config: Record<string, unknown> = {};
    setAtPath(config, ["groups", "123", "requireMention"], false);
    expect(config).toEqual({ groups: { "123": { requireMention: false } } });
  });

  it("refuses to descend into a scalar", () => {
    const config: Record<string, unknown> = { agents: { defaults: { model: "x" } } };
    expect(() => setAtPath(config, parseConfigPath("agents.defaults.model.primary"), "y")).toThrow(
      /agents\.defaults\.model is a string, not an object/,
    );
  });

  it("stores __proto__ as an own key without polluting prototypes", () => {
    const config: Record<string, unknown> = {};
    setAtPath(config, ["__proto__", "polluted"], true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.keys(config)).toEqual(["__proto__"]);
  });
});

describe("unsetAtPath", () => {
  it("removes a key and prunes parents left empty, keeping the root", () => {
    const config: Record<string, unknown> = {
      channels: { telegram: { accounts: { main: { botToken: "t" } } }, matrix: { enabled: true } },
    };
    expect(unsetAtPath(config, parseConfigPath("channels.telegram.accounts.main.botToken"))).toBe(true);
    expect(config).toEqual({ channels: { matrix: { enabled: true } } });
    expect(unsetAtPath(config, parseConfigPath("channels.matrix.enabled"))).toBe(true);
    expect(config).toEqual({});
  });

  it("stops pruning at a non-empty parent", () => {
    const config: Record<string, unknown> = { a: { b: { c: 1 }, keep: true } };
    expect(unsetAtPath(config, ["a", "b", "c"])).toBe(true);
    expect(config).toEqual({ a: { keep: true } });
  });

  it("splices array items and never prunes arrays", () => {
    const config: Record<string, unknown> = { bindings: [{ agentId: "a" }, { agentId: "b" }], x: { list: [1] } };
    expect(unsetAtPath(config, parseConfigPath("bindings[0]"))).toBe(true);
    expect(config.bindings).toEqual([{ agentId: "b" }]);
    expect(unsetAtPath(config, parseConfigPath("x.list[0]"))).toBe(true);
    expect(config.x).toEqual({ list: [] });
    expect(unsetAtPath(config, parseConfigPath("bindings[0].agentId"))).toBe(true);
    expect(config.bindings).toEqual([{}]);
  });

  it("returns false when nothing is there", () => {
    const config: Record<string, unknown> = { a: { b: 1 }, s: "str" };
    expect(unsetAtPath(config, ["a", "c"])).toBe(false);
    expect(unsetAtPath(config, ["x", "y"])).toBe(false);
    expect(unsetAtPath(config, ["s", "length"])).toBe(false);
    expect(unsetAtPath(config, ["a", "toString"])).toBe(false);
    expect(config).toEqual({ a: { b: 1 }, s: "str" });
  });
});
