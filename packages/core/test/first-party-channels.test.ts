import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { FIRST_PARTY_CHANNELS } from "../src/config/index.js";

// The one table in core that names platforms is generated from the channel packages of this
// repository (scripts/gen-first-party-channels.mjs). It must not drift from them, and no other
// file of core's source may name a platform.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

describe("the first-party channel table", () => {
  // Entries whose package is not in the repository yet are kept as written (see the generator).
  const withPackage = FIRST_PARTY_CHANNELS.filter((c) => existsSync(path.join(root, c.folder, "package.json")));
  for (const entry of withPackage) {
    const dir = path.join(root, entry.folder);
    it(`${entry.id} matches its package's config entry`, async () => {
      const { entryFromPackage } = (await import(path.join(root, "scripts/gen-first-party-channels.mjs"))) as {
        entryFromPackage(dir: string): Promise<unknown>;
      };
      expect(entry).toEqual(await entryFromPackage(dir));
    });
  }

  it("lists telegram, whose package exists, and is current for every package in extensions/", () => {
    expect(FIRST_PARTY_CHANNELS.map((c) => c.id)).toContain("telegram");
    for (const c of FIRST_PARTY_CHANNELS) {
      const pkg = path.join(root, c.folder, "package.json");
      if (existsSync(pkg)) expect(JSON.parse(readFileSync(pkg, "utf8")).name).toBe(c.packageName);
    }
  });
});

describe("core knows no platform", () => {
  it("names no first-party channel in its source outside the generated table", () => {
    const src = path.join(root, "packages/core/src");
    const ids = FIRST_PARTY_CHANNELS.map((c) => c.id);
    const pattern = new RegExp(`\\b(${ids.join("|")})\\b`, "i");
    const offenders: string[] = [];
    const walk = (dir: string): void => {
      for (const name of readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, name.name);
        if (name.isDirectory()) walk(full);
        else if (name.name.endsWith(".ts") && !name.name.endsWith(".test.ts") && name.name !== "first-party-channels.ts") {
          readFileSync(full, "utf8")
            .split("\n")
            .forEach((line, i) => {
              if (pattern.test(line)) offenders.push(`${path.relative(root, full)}:${i + 1}: ${line.trim()}`);
            });
        }
      }
    };
    walk(src);
    expect(offenders).toEqual([]);
  });
});
