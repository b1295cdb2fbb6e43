import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeConfig, makeCtx, makeSandbox, type TestSandbox } from "./__fixtures__/context.js";
import { createBuiltinTools, createProcessRegistry, filterTools, resolveToolPolicy, toolSchemaSizes } from "./index.js";

let box: TestSandbox;
beforeEach(() => (box = makeSandbox()));
afterEach(() => box.cleanup());

describe("createBuiltinTools", () => {
  it("returns the built-in tools with object JSON Schemas and groups", () => {
    const tools = createBuiltinTools({ config: makeConfig(), modelRef: "openai/gpt-5" });
    expect(tools.map((t) => t.name)).toEqual([
      "read",
      "write",
      "edit",
      "apply_patch",
      "exec",
      "process",
      "web_search",
      "web_fetch",
      "browser",
      "memory_search",
      "memory_get",
      "cron",
    ]);
    for (const t of tools) {
      expect(t.parameters).toMatchObject({ type: "object", properties: expect.any(Object) });
      expect(t.parameters).not.toHaveProperty("$schema");
      expect(t.groups.length).toBeGreaterThan(0);
      expect(t.description.length).toBeGreaterThan(20);
    }
    expect(tools.find((t) => t.name === "read")!.parameters).toMatchObject({ required: ["path"], additionalProperties: false });
  });

  it("never throws on bad arguments, and accepts arguments as a JSON string", async () => {
    const processes = createProcessRegistry();
    const ctx = makeCtx(box);
    for (const tool of createBuiltinTools({ processes })) {
      const res = await tool.execute({ unexpected: 1 }, ctx);
      expect(res.isError, tool.name).toBe(true);
      expect(res.content, tool.name).toContain(tool.name);
    }
    const write = createBuiltinTools().find((t) => t.name === "write")!;
    expect((await write.execute('{"path":"a.txt","content":"x"}', ctx)).isError).toBeFalsy();
    expect((await write.execute("{not json", ctx)).content).toContain("not valid JSON");
    await processes.dispose();
  });

  it("combines with the policy", () => {
    const config = makeConfig({ tools: { profile: "coding", deny: ["group:runtime"] } });
    const names = filterTools(createBuiltinTools({ config }), resolveToolPolicy(config, "main")).map((t) => t.name);
    expect(names).toEqual(["read", "write", "edit", "web_search", "web_fetch", "memory_search", "memory_get", "cron"]);
  });
});

describe("toolSchemaSizes", () => {
  it("lists each tool's size, heaviest first", () => {
    const sizes = toolSchemaSizes([
      { name: "small", description: "x", parameters: {} },
      { name: "big", description: "y".repeat(100), parameters: { type: "object" } },
    ]);
    expect(sizes.map((s) => s.name)).toEqual(["big", "small"]);
    expect(sizes[0]).toEqual({
      name: "big",
      descriptionChars: 100,
      schemaChars: 17,
      totalChars: JSON.stringify({ name: "big", description: "y".repeat(100), parameters: { type: "object" } }).length,
    });
    const builtin = toolSchemaSizes(createBuiltinTools({ modelRef: "openai/gpt-5" }));
    expect(builtin).toHaveLength(12);
    expect(builtin.find((s) => s.name === "browser")?.schemaChars).toBeGreaterThan(0);
    for (let i = 1; i < builtin.length; i++) expect(builtin[i - 1]!.totalChars).toBeGreaterThanOrEqual(builtin[i]!.totalChars);
  });
});
