// While `openclaw gateway` starts, V8's young generation stays at its initial size and its
// optimizing compiler is off (so an idle gateway keeps neither the memory start-up garbage grew
// the young generation to nor the compiler's pages), unless the user set those flags themselves.
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";

const MODULE = new URL("../dist/gateway/startup-memory.js", import.meta.url).href;

/** Runs `script` (an ES module) in a node with `execArgv`; returns what it printed, parsed. */
function runNode<T>(script: string, execArgv: string[]): T {
  const out = execFileSync(process.execPath, [...execArgv, "--input-type=module", "-e", script], {
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "" },
  });
  return JSON.parse(out) as T;
}

/**
 * Holds the start-up memory settings, allocates 40 MB of objects that all survive, releases them,
 * allocates as much again; the young generation's size (MB) at the start, after the held phase
 * and after the released one.
 */
function youngGenerationSizes(execArgv: string[] = []): [number, number, number] {
  return runNode(
    `
    import { getHeapSpaceStatistics } from "node:v8";
    const { holdStartupMemory } = await import(${JSON.stringify(MODULE)});
    const size = () => getHeapSpaceStatistics().find((s) => s.space_name === "new_space").space_size / 1048576;
    const kept = [];
    const allocate = () => { for (let i = 0; i < 400_000; i++) kept.push({ i, text: "x" + i }); };
    const sizes = [size()];
    const release = holdStartupMemory();
    allocate();
    sizes.push(size());
    release();
    allocate();
    sizes.push(size());
    console.log(JSON.stringify(sizes));`,
    execArgv,
  );
}

/**
 * Whether a function called a million times got optimized by Turbofan while held, and once the
 * release's memory window (here 0 ms long) is over (compiles synchronously, so nothing is left to
 * a background thread's timing).
 */
function optimizedWhileHeldAndAfter(execArgv: string[] = [], endEarly = false): { held: boolean; after: boolean } {
  return runNode(
    `
    const { holdStartupMemory, endStartupMemoryWindow } = await import(${JSON.stringify(MODULE)});
    function drive(f) { let s = 0; for (let i = 0; i < 1e6; i++) s += f(i); return s; }
    %NeverOptimizeFunction(drive);
    const turbofanned = () => { const f = (x) => x * 2 + 1; drive(f); return (%GetOptimizationStatus(f) & 64) !== 0; };
    const release = holdStartupMemory({ memoryWindowMs: ${endEarly ? "[0, 3_600_000]" : "[0, 0]"} });
    const held = turbofanned();
    ${endEarly ? "endStartupMemoryWindow();" : ""}
    const alive = setInterval(() => {}, 1000); // the release's timers do not keep a process alive
    await release();
    clearInterval(alive);
    console.log(JSON.stringify({ held, after: turbofanned() }));`,
    ["--allow-natives-syntax", "--no-concurrent-recompilation", ...execArgv],
  );
}

describe("holdStartupMemory", () => {
  it("keeps the young generation small (at most one step above its initial 1 MB) until released; then it grows under load again", () => {
    const [initial, held, released] = youngGenerationSizes();
    expect(held).toBeLessThanOrEqual(initial * 2);
    expect(released).toBeGreaterThan(held * 4);
  });

  it("leaves a young generation the user sized with a node flag alone", () => {
    const [initial, held] = youngGenerationSizes(["--max-semi-space-size=8"]);
    expect(held).toBeGreaterThan(initial * 2);
  });

  it("optimizes no hot function until released and its memory window is over; afterwards it does again", () => {
    expect(optimizedWhileHeldAndAfter()).toEqual({ held: false, after: true });
  });

  it("ends the window at once when the gateway gets work (a one-hour window here)", () => {
    expect(optimizedWhileHeldAndAfter([], true)).toEqual({ held: false, after: true });
  });

  it("leaves the compiler tiers the user chose alone", () => {
    // --no-opt stays off after the release ...
    expect(optimizedWhileHeldAndAfter(["--no-opt"])).toEqual({ held: false, after: false });
    // ... and --opt (or --turbofan) is not held off.
    expect(optimizedWhileHeldAndAfter(["--turbofan"])).toEqual({ held: true, after: true });
  });
});

describe("the hold the bin starts before the gateway's command", () => {
  it("is joined by a second hold while pending (one release for both); a hold after the release is a new one", () => {
    const result = runNode<{ joined: boolean; fresh: boolean }>(
      `
      const { holdStartupMemory } = await import(${JSON.stringify(MODULE)});
      const alive = setInterval(() => {}, 1000); // the release's timers do not keep a process alive
      const first = holdStartupMemory({ memoryWindowMs: [0, 0] });
      const joined = holdStartupMemory() === first;
      await first();
      const next = holdStartupMemory({ memoryWindowMs: [0, 0] });
      const fresh = next !== first;
      await next();
      clearInterval(alive);
      console.log(JSON.stringify({ joined, fresh }));`,
      [],
    );
    expect(result).toEqual({ joined: true, fresh: true });
  });

  it.each([
    ["while the window is still open", false],
    ["after a gateway with work ended the window", true],
  ])(
    "runs atStartupMemoryRelease callbacks at the release under the flags the hold set (%s), which V8's code cache needs",
    (_when, endEarly) => {
      const result = runNode<{ holdChangesFlags: boolean; inCallback: boolean; afterRelease: boolean; order: string[] }>(
        `
      import { cachedDataVersionTag } from "node:v8";
      const { holdStartupMemory, endStartupMemoryWindow, atStartupMemoryRelease } = await import(${JSON.stringify(MODULE)});
      const initial = cachedDataVersionTag();
      const release = holdStartupMemory({ memoryWindowMs: [0, 3_600_000] });
      const held = cachedDataVersionTag();
      const order = [];
      let inCallback;
      atStartupMemoryRelease(() => { order.push("throws"); throw new Error("not written"); });
      atStartupMemoryRelease(() => { order.push("second"); inCallback = cachedDataVersionTag(); });
      ${endEarly ? "endStartupMemoryWindow();" : ""}
      order.push("released");
      release();
      const afterRelease = cachedDataVersionTag();
      endStartupMemoryWindow();
      console.log(JSON.stringify({ holdChangesFlags: held !== initial, inCallback: inCallback === held, afterRelease: afterRelease === held, order }));`,
        [],
      );
      expect(result).toEqual({ holdChangesFlags: true, inCallback: true, afterRelease: false, order: ["released", "throws", "second"] });
    },
  );

  it("runs a callback at once when no hold is pending", () => {
    const ran = runNode<boolean>(
      `
      const { atStartupMemoryRelease } = await import(${JSON.stringify(MODULE)});
      let ran = false;
      atStartupMemoryRelease(() => { ran = true; });
      console.log(JSON.stringify(ran));`,
      [],
    );
    expect(ran).toBe(true);
  });
});
