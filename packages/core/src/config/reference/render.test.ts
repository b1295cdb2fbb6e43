import { describe, expect, it } from "vitest";
import { z } from "zod";
import { renderConfigReference } from "./index.js";

const small = z
  .strictObject({
    server: z
      .strictObject({
        port: z.int().min(1).max(65535).default(8080).describe("Port to listen on."),
        mode: z.enum(["fast", "safe"]).default("safe").describe("Speed or safety."),
        root: z.string().optional().describe("Data folder (default <home>/data)."),
      })
      .prefault({})
      .describe("The server."),
    model: z
      .union([z.string(), z.strictObject({ primary: z.string().describe("Tried first."), fallbacks: z.array(z.string()).optional() })])
      .optional()
      .describe("A model ref or { primary, fallbacks }."),
    hooks: z
      .array(z.strictObject({ event: z.string().describe("Event name."), run: z.string().optional().describe("Command | script.") }))
      .default([])
      .describe("Hooks run on events."),
    plugins: z
      .strictObject({
        alpha: z
          .strictObject({
            accounts: z.record(z.string().regex(/^[a-z]+$/), z.strictObject({ token: z.string().describe("Secret.") })).optional(),
          })
          .optional()
          .describe("Alpha plugin."),
        beta: z.strictObject({ on: z.boolean().optional() }).optional().describe("Beta plugin."),
      })
      .prefault({})
      .describe("Plugins by id."),
    tags: z.record(z.string(), z.array(z.string())).optional().describe("Free tags."),
  })
  .describe("Small test config.");

const schema = z.toJSONSchema(small, { io: "input" });

function rowOf(text: string, key: string): string | undefined {
  return text.split("\n").find((line) => line.startsWith(`| \`${key}\` |`));
}

describe("renderConfigReference", () => {
  const text = renderConfigReference(schema, { title: "Test reference", intro: "Intro.", splitSections: ["plugins"] });

  it("gives each top-level key a section with a table of its nested keys", () => {
    expect(text.startsWith("# Test reference\n\nIntro.\n\n## Contents\n")).toBe(true);
    expect(text).toContain("## server\n\nThe server.\n\nType: `object` · Default: `{}`\n");
    expect(rowOf(text, "server.port")).toBe("| `server.port` | `integer`, ≥ 1, ≤ 65535 | `8080` | Port to listen on. |");
    expect(rowOf(text, "server.mode")).toBe('| `server.mode` | `"fast" \\| "safe"` | `"safe"` | Speed or safety. |');
    expect(rowOf(text, "server.root")).toBe("| `server.root` | `string` |  | Data folder (default \\<home>/data). |");
  });

  it("lists union members and the keys of object members at the same path", () => {
    expect(text).toContain("## model\n\nA model ref or { primary, fallbacks }.\n\nType: `string \\| object`\n");
    expect(rowOf(text, "model.primary")).toBe("| `model.primary` | `string` (required) |  | Tried first. |");
    expect(rowOf(text, "model.fallbacks")).toBe("| `model.fallbacks` | `string[]` |  |  |");
  });

  it("uses [] for list items and <id> for record keys", () => {
    expect(text).toContain("## hooks\n\nHooks run on events.\n\nType: `object[]` · Default: `[]`\n");
    expect(rowOf(text, "hooks[]")).toBe("| `hooks[]` | `object` |  |  |");
    expect(rowOf(text, "hooks[].event")).toBe("| `hooks[].event` | `string` (required) |  | Event name. |");
    expect(rowOf(text, "hooks[].run")).toBe("| `hooks[].run` | `string` |  | Command \\| script. |");
    expect(rowOf(text, "plugins.alpha.accounts")).toBe("| `plugins.alpha.accounts` | `{ <id>: object }`, keys matching `^[a-z]+$` |  |  |");
    expect(rowOf(text, "plugins.alpha.accounts.<id>.token")).toBe(
      "| `plugins.alpha.accounts.<id>.token` | `string` (required) |  | Secret. |",
    );
    // A record of lists of strings is fully described by its type: no rows below it.
    expect(text).toContain("## tags\n\nFree tags.\n\nType: `{ <id>: string[] }`\n");
    expect(text).not.toContain("`tags.<id>`");
  });

  it("splits the named sections into one section per child, in schema order", () => {
    const alpha = text.indexOf("### plugins.alpha\n\nAlpha plugin.\n");
    const beta = text.indexOf("### plugins.beta\n\nBeta plugin.\n");
    expect(alpha).toBeGreaterThan(0);
    expect(beta).toBeGreaterThan(alpha);
    expect(text).toContain("  - [plugins.alpha](#pluginsalpha)\n");
    expect(text).toContain("One section per key: [alpha](#pluginsalpha), [beta](#pluginsbeta).");
    const order = ["## server", "## model", "## hooks", "## plugins", "## tags"].map((h) => text.indexOf(`${h}\n`));
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  it("is deterministic and ends with one newline", () => {
    expect(renderConfigReference(schema, { title: "Test reference", intro: "Intro.", splitSections: ["plugins"] })).toBe(text);
    expect(text.endsWith("\n") && !text.endsWith("\n\n")).toBe(true);
    expect(text).not.toMatch(/\n\n\n/);
  });

  it("follows $ref and stops at cycles", () => {
    const withRefs = {
      type: "object",
      properties: {
        tree: { $ref: "#/$defs/node", description: "A tree." },
      },
      $defs: {
        node: {
          type: "object",
          properties: {
            label: { type: "string", description: "Label." },
            children: { type: "array", items: { $ref: "#/$defs/node" } },
          },
        },
      },
    };
    const out = renderConfigReference(withRefs, { intro: "" });
    expect(rowOf(out, "tree.label")).toBe("| `tree.label` | `string` |  | Label. |");
    expect(rowOf(out, "tree.children")).toBe("| `tree.children` | `object[]` |  |  |");
    expect(rowOf(out, "tree.children[]")).toBeDefined();
    expect(rowOf(out, "tree.children[].label")).toBeDefined();
    expect(out).toContain("A tree.");
  });

  it("rejects a schema without properties at its root", () => {
    expect(() => renderConfigReference({ type: "string" })).toThrow(TypeError);
    expect(() => renderConfigReference(null)).toThrow(TypeError);
  });
});
