// The gateway keeps V8's young generation at its initial size while it starts (so an idle
// gateway does not keep the memory start-up garbage grew it to), unless the user tunes it.
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";

const MODULE = new URL("../dist/gateway/young-generation.js", import.meta.url).href;

/**
 * Runs a node that holds the young generation (with `execArgv` as its flags), allocates 40 MB of
 * objects that all survive, releases it, allocates as much again; prints the young generation's
 * size (MB) at the start, after the held phase and after the released one.
 */
function youngGenerationSizes(execArgv: string[] = []): [number, number, number] {
  const script = `
    import { getHeapSpaceStatistics } from "node:v8";
    const { holdYoungGeneration } = await import(${JSON.stringify(MODULE)});
    const size = () => getHeapSpaceStatistics().find((s) => s.space_name === "new_space").space_size / 1048576;
    const kept = [];
    const allocate = () => { for (let i = 0; i < 400_000; i++) kept.push({ i, text: "x" + i }); };
    const sizes = [size()];
    const release = holdYoungGeneration();
    allocate();
    sizes.push(size());
    release();
    allocate();
    sizes.push(size());
    console.log(JSON.stringify(sizes));`;
  const out = execFileSync(process.execPath, [...execArgv, "--input-type=module", "-e", script], {
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "" },
  });
  return JSON.parse(out) as [number, number, number];
}

describe("holdYoungGeneration", () => {
  it("keeps the young generation small (at most one step above its initial 1 MB) until released; then it grows under load again", () => {
    const [initial, held, released] = youngGenerationSizes();
    expect(held).toBeLessThanOrEqual(initial * 2);
    expect(released).toBeGreaterThan(held * 4);
  });

  it("leaves a young generation the user sized with a node flag alone", () => {
    const [initial, held] = youngGenerationSizes(["--max-semi-space-size=8"]);
    expect(held).toBeGreaterThan(initial * 2);
  });
});
