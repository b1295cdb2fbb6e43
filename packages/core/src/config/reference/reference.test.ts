import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { ChannelConfigDefinition } from "@openclaw/plugin-sdk/config";
import { describe, expect, it } from "vitest";
import { CONFIG_REFERENCE_FILE, renderBuiltinConfigReference as render } from "./index.js";

const repoRoot = fileURLToPath(new URL("../../../../../", import.meta.url));

// `pnpm docs:gen` documents core with every channel package in extensions/ (their built config
// entries, in folder order); the test loads the same set, so a new channel cannot be forgotten.
const channelDefinitions = await Promise.all(
  readdirSync(path.join(repoRoot, "extensions"))
    .sort()
    .flatMap((name) => {
      const pkgFile = path.join(repoRoot, "extensions", name, "package.json");
      if (!existsSync(pkgFile)) return [];
      const entry = JSON.parse(readFileSync(pkgFile, "utf8")).openclaw?.plugin?.configEntry as string | undefined;
      return entry === undefined ? [] : [path.join(repoRoot, "extensions", name, entry)];
    })
    .map(async (file) => ((await import(pathToFileURL(file).href)) as { default: ChannelConfigDefinition }).default),
);
const renderBuiltinConfigReference = () => render(channelDefinitions);

function firstDifference(a: string, b: string): string {
  const left = a.split("\n");
  const right = b.split("\n");
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    if (left[i] !== right[i]) {
      return `first difference at line ${i + 1}:\n  in the file:   ${left[i] ?? "(end of file)"}\n  from schema:   ${right[i] ?? "(end of file)"}`;
    }
  }
  return "";
}

describe("docs/configuration-reference.md", () => {
  it("is what the current schema generates", () => {
    const expected = renderBuiltinConfigReference();
    let actual = "";
    try {
      actual = readFileSync(path.join(repoRoot, CONFIG_REFERENCE_FILE), "utf8");
    } catch {
      // A missing file is reported as stale below.
    }
    if (actual !== expected) {
      expect.fail(
        `${CONFIG_REFERENCE_FILE} is out of date with the config schema; regenerate it with \`pnpm build && pnpm docs:gen\`.\n` +
          firstDifference(actual, expected),
      );
    }
  });

  it("documents every channel, nested streaming keys and account overrides", () => {
    const text = renderBuiltinConfigReference();
    for (const id of ["telegram", "matrix", "feishu", "qqbot", "whatsapp"]) {
      expect(text).toContain(`channels.${id}`);
    }
    expect(text).toMatch(
      /^\| `channels\.telegram\.accounts\.<id>\.streaming\.mode` \| `"off" \\\| "partial" \\\| "block" \\\| "progress"` \|/m,
    );
    // A first-party channel whose package is not installed is named, with its package.
    expect(render([])).toContain("checked once its plugin (@openclaw/matrix) is installed");
    expect(text).toMatch(/^\| `agents\.defaults\.blockStreamingChunk\.maxChars` \| `integer`, > 0 \| `1200` \|/m);
    expect(text).toContain("| `bindings[].match.channel` |");
    // Retired flat keys are not part of the schema, so they are not in the reference.
    expect(text).not.toContain("channels.telegram.streamMode");
    expect(text).not.toContain("channels.qqbot.streaming.block");
  });
});
