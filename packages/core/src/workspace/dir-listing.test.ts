import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { cachedListing } from "./dir-listing.js";

let root: string;
beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), "openclaw-listing-"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("cachedListing", () => {
  it("sees a folder created after calls that found it missing, and files added to it", async () => {
    const dir = path.join(root, "workspace");
    expect([...(await cachedListing(dir))]).toEqual([]);
    expect([...(await cachedListing(dir))]).toEqual([]);
    mkdirSync(dir);
    writeFileSync(path.join(dir, "AGENTS.md"), "hi");
    expect([...(await cachedListing(dir))]).toEqual(["AGENTS.md"]);
    writeFileSync(path.join(dir, "SOUL.md"), "hi");
    expect([...(await cachedListing(dir))].sort()).toEqual(["AGENTS.md", "SOUL.md"]);
  });

  it("answers empty for a folder that went away, and for a file in its place", async () => {
    const dir = path.join(root, "memory");
    mkdirSync(dir);
    writeFileSync(path.join(dir, "2025-03-02.md"), "note");
    expect((await cachedListing(dir)).has("2025-03-02.md")).toBe(true);
    rmSync(dir, { recursive: true });
    expect([...(await cachedListing(dir))]).toEqual([]);
    writeFileSync(dir, "not a folder");
    expect([...(await cachedListing(dir))]).toEqual([]);
  });
});
