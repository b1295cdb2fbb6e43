// The JSON5 examples in the user docs must be true: each one validates against the real schema,
// and each example marked `<!-- legacy -->` is migrated by doctor's rules into a valid config.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import JSON5 from "json5";
import { afterAll, describe, expect, it } from "vitest";
import { createConfigRegistry, formatProblems, resolveConfigSource, validateConfig } from "../src/config/index.js";

const docsDir = fileURLToPath(new URL("../../../docs/", import.meta.url));
const DOCS = [
  "streaming.md",
  "configuration.md",
  "workspace.md",
  "skills.md",
  "sessions.md",
  "agent.md",
  "gateway.md",
  "plugins.md",
  "access.md",
  "delivery.md",
  "channels/telegram.md",
  "channels/qqbot.md",
  "channels/whatsapp.md",
  "channels/matrix.md",
  "tools/browser.md",
  "tools/web-search.md",
] as const;

type Marker = { kind: "plain" } | { kind: "legacy" } | { kind: "migrated" } | { kind: "file"; name: string };

interface Json5Block {
  doc: string;
  /** 1-based line of the opening fence. */
  line: number;
  marker: Marker;
  text: string;
}

const MARKER = /^<!--\s*(legacy|migrated|file:\s*([\w.-]+))\s*-->$/;

/** Every ```json5 block of a Markdown file, with the marker comment on the line before it. */
function json5Blocks(doc: string, markdown: string): Json5Block[] {
  const lines = markdown.split("\n");
  const blocks: Json5Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]!.trim() !== "```json5") continue;
    const end = lines.findIndex((l, j) => j > i && l.trim() === "```");
    if (end < 0) throw new Error(`${doc}:${i + 1}: unclosed json5 block`);
    let prev = i - 1;
    while (prev >= 0 && lines[prev]!.trim() === "") prev--;
    const m = prev >= 0 ? MARKER.exec(lines[prev]!.trim()) : null;
    const marker: Marker = !m
      ? { kind: "plain" }
      : m[2] !== undefined
        ? { kind: "file", name: m[2] }
        : { kind: m[1] as "legacy" | "migrated" };
    blocks.push({ doc, line: i + 1, marker, text: lines.slice(i + 1, end).join("\n") });
    i = end;
  }
  return blocks;
}

const sources = DOCS.map((doc) => ({ doc, markdown: readFileSync(path.join(docsDir, doc), "utf8") }));
const blocks = sources.flatMap(({ doc, markdown }) => json5Blocks(doc, markdown));

// Every ${VAR} the examples use gets a stand-in value; `$${VAR}` is an escape, not a use.
const env: NodeJS.ProcessEnv = {};
for (const { markdown } of sources) {
  for (const m of markdown.matchAll(/(?<!\$)\$\{([A-Z_][A-Z0-9_]*)\}/g)) env[m[1]!] = `example-${m[1]!.toLowerCase()}`;
}

// Files pulled in with $include live next to the config, one folder per document.
const tempRoot = mkdtempSync(path.join(tmpdir(), "openclaw-docs-"));
const configFileOf = (doc: string) => path.join(tempRoot, doc.replace(/\W/g, "-"), "openclaw.json");
for (const { doc } of sources) mkdirSync(path.dirname(configFileOf(doc)), { recursive: true });
for (const block of blocks) {
  if (block.marker.kind === "file") writeFileSync(path.join(path.dirname(configFileOf(block.doc)), block.marker.name), block.text);
}
afterAll(() => rmSync(tempRoot, { recursive: true, force: true }));

const registry = createConfigRegistry();
const where = (b: Json5Block) => `${b.doc}:${b.line}`;

function parse(block: Json5Block): Record<string, unknown> {
  try {
    return JSON5.parse(block.text) as Record<string, unknown>;
  } catch (err) {
    throw new Error(`${where(block)}: the example is not valid JSON5: ${(err as Error).message}`);
  }
}

async function check(block: Json5Block, raw: unknown) {
  const file = configFileOf(block.doc);
  const resolved = await resolveConfigSource(raw, { file, env: { ...env, HOME: tempRoot } });
  return validateConfig(resolved, registry);
}

function expectValid(block: Json5Block, result: Awaited<ReturnType<typeof check>>, what: string) {
  if (!result.ok) expect.fail(`${where(block)}: ${what} does not validate.\n${formatProblems(where(block), result.problems)}`);
}

describe("JSON5 examples in docs/", () => {
  it("exist in both guides, including a legacy example and one per channel", () => {
    expect(blocks.filter((b) => b.doc === "configuration.md" && b.marker.kind === "plain").length).toBeGreaterThanOrEqual(3);
    expect(blocks.some((b) => b.marker.kind === "legacy")).toBe(true);
    const streamingExamples = blocks.filter((b) => b.doc === "streaming.md" && b.marker.kind === "plain").map((b) => b.text);
    for (const channel of ["telegram", "matrix", "feishu", "qqbot", "whatsapp"]) {
      expect(
        streamingExamples.some((t) => t.includes(`${channel}: {`)),
        `an example for ${channel}`,
      ).toBe(true);
    }
  });

  it("configuration.md: the $include example merges the way the text says", async () => {
    const block = blocks.find((b) => b.doc === "configuration.md" && b.marker.kind === "plain" && b.text.includes('"./agents-base.json5"'));
    expect(block).toBeDefined();
    const result = await check(block!, parse(block!));
    expectValid(block!, result, "the example");
    if (!result.ok) return;
    const defaults = result.config.agents.defaults;
    expect(defaults.model).toBe("openai/gpt-4o");
    expect(defaults.skills).toEqual(["notes"]);
    expect(defaults.userTimezone).toBe("Europe/Berlin");
    expect(defaults.timeoutSeconds).toBe(3600);
    const channels = result.config.channels as { telegram?: { botToken?: string } };
    expect(channels.telegram?.botToken).toBe(env.TELEGRAM_BOT_TOKEN);
  });

  for (const block of blocks) {
    if (block.marker.kind === "plain") {
      it(`${where(block)} validates`, async () => {
        expectValid(block, await check(block, parse(block)), "the example");
      });
    } else if (block.marker.kind === "legacy") {
      it(`${where(block)} (legacy) is rejected as is and migrates into a valid config`, async () => {
        const raw = parse(block);
        const before = await check(block, raw);
        expect(before.ok, `${where(block)} is marked legacy but already validates`).toBe(false);
        if (!before.ok)
          expect(
            before.problems.every((p) => p.kind === "legacy"),
            formatProblems(where(block), before.problems),
          ).toBe(true);
        const migrated = structuredClone(raw);
        const outcome = registry.migrate(migrated);
        expect(outcome.problems, `${where(block)}: doctor reports problems`).toEqual([]);
        expect(outcome.changes.length).toBeGreaterThan(0);
        expectValid(block, await check(block, migrated), "the migrated example");
        // Idempotent: a second run changes nothing.
        expect(registry.migrate(structuredClone(migrated)).changes).toEqual([]);
      });
    } else if (block.marker.kind === "migrated") {
      it(`${where(block)} (migrated) is what doctor makes of the legacy example before it`, async () => {
        const legacy = [...blocks].reverse().find((b) => b.doc === block.doc && b.line < block.line && b.marker.kind === "legacy");
        expect(legacy, `${where(block)}: no legacy example before it`).toBeDefined();
        const migrated = structuredClone(parse(legacy!));
        registry.migrate(migrated);
        expect(parse(block)).toEqual(migrated);
        expectValid(block, await check(block, parse(block)), "the example");
      });
    } else {
      it(`${where(block)} (included file ${block.marker.name}) is valid JSON5`, () => {
        expect(() => parse(block)).not.toThrow();
      });
    }
  }
});
