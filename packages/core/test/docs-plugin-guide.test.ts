// The plugin guide (docs/writing-a-channel-plugin.md) shows the example plugin in
// examples/channel-chatterbox: every code block marked `<!-- example: <file> -->` must be that file,
// verbatim, so the guide cannot drift from the code that test/plugins/example-plugin.test.ts
// installs from tarballs and runs. The example's package.json must also fit the SDK of this
// checkout (its ranges, and the names `pnpm pack` gives the tarballs).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import semver from "semver";
import { describe, expect, it } from "vitest";

const REPO = fileURLToPath(new URL("../../../", import.meta.url));
const EXAMPLE = path.join(REPO, "examples", "channel-chatterbox");
const GUIDE = "docs/writing-a-channel-plugin.md";
const guide = readFileSync(path.join(REPO, GUIDE), "utf8");

interface Block {
  /** 1-based line of the opening fence. */
  line: number;
  lang: string;
  body: string;
  /** The file named by the `<!-- example: … -->` line just above the fence. */
  file?: string;
}

function blocks(): Block[] {
  const out: Block[] = [];
  const lines = guide.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w*)$/.exec(lines[i]!);
    if (!open) continue;
    const end = lines.indexOf("```", i + 1);
    if (end < 0) throw new Error(`${GUIDE}:${i + 1}: the code block is not closed`);
    const marker = /^<!-- example: (\S+) -->$/.exec(lines[i - 1] ?? "");
    out.push({ line: i + 1, lang: open[1]!, body: `${lines.slice(i + 1, end).join("\n")}\n`, file: marker?.[1] });
    i = end;
  }
  return out;
}

const readJson = (file: string) => JSON.parse(readFileSync(file, "utf8"));
const example = (file: string) => readFileSync(path.join(EXAMPLE, file), "utf8");

describe("the plugin guide shows the example plugin as it is", () => {
  it("every TypeScript, JavaScript and JSON block is a file of the example, verbatim", () => {
    const code = blocks().filter((b) => ["ts", "js", "json"].includes(b.lang));
    const unmarked = code.filter((b) => b.file === undefined).map((b) => `${GUIDE}:${b.line}`);
    expect(unmarked, "code blocks without an <!-- example: <file> --> line above them").toEqual([]);
    for (const b of code) {
      expect(b.body, `${GUIDE}:${b.line} shows examples/channel-chatterbox/${b.file}; copy the file into the block`).toBe(example(b.file!));
    }
  });

  it("shows the whole plugin: its package files, every source file and the conformance test, once each", () => {
    const shown = blocks().flatMap((b) => (b.file ? [b.file] : []));
    const sources = readdirSync(path.join(EXAMPLE, "src")).map((f) => `src/${f}`);
    const expected = [
      "package.json",
      "tsconfig.json",
      "tsconfig.check.json",
      "scripts/gen-manifest.mjs",
      ...sources,
      "test/conformance.test.ts",
    ];
    expect([...shown].sort()).toEqual([...expected].sort());
  });
});

describe("the example's package.json fits this checkout's SDK", () => {
  const pkg = readJson(path.join(EXAMPLE, "package.json"));
  const sdk = readJson(path.join(REPO, "packages", "plugin-sdk", "package.json"));
  const testkit = readJson(path.join(REPO, "packages", "testkit", "package.json"));
  const delivery = readJson(path.join(REPO, "packages", "delivery", "package.json"));

  it("is private, and declares the SDK and zod as peers only, in ranges that include this SDK and its zod", () => {
    expect(pkg.private, "the example is never published").toBe(true);
    expect(Object.keys(pkg.peerDependencies).sort()).toEqual(["@openclaw/plugin-sdk", "zod"]);
    expect(pkg.dependencies?.["@openclaw/plugin-sdk"] ?? pkg.dependencies?.zod).toBeUndefined();
    for (const range of [pkg.peerDependencies["@openclaw/plugin-sdk"], pkg.openclaw.plugin.sdk]) {
      expect(semver.satisfies(sdk.version, range), `@openclaw/plugin-sdk ${sdk.version} satisfies ${range}`).toBe(true);
    }
    expect(semver.satisfies(sdk.devDependencies.zod, pkg.peerDependencies.zod)).toBe(true);
    expect(pkg.devDependencies.zod).toBe(sdk.devDependencies.zod);
  });

  it("points its dev dependencies at the tarballs `pnpm pack` makes of this SDK and test kit", () => {
    const tarball = (p: { name: string; version: string }) =>
      `file:../openclaw-packs/${p.name.replace(/^@/, "").replace("/", "-")}-${p.version}.tgz`;
    expect(pkg.devDependencies["@openclaw/plugin-sdk"]).toBe(tarball(sdk));
    expect(pkg.devDependencies["@openclaw/testkit"]).toBe(tarball(testkit));
    expect(pkg.devDependencies["@openclaw/delivery"]).toBe(tarball(delivery));
  });
});
