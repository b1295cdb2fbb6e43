// What `openclaw gateway` does so that an idle gateway does not keep the memory its start used:
// - V8's young generation (the semi-spaces where new objects start) stays at its initial size
//   while it starts. V8 doubles it whenever many objects survive a scavenge, up to 16 MB each,
//   and does not give that memory back to an idle process: loading the gateway (zod schemas,
//   about 1 MB of modules) grew it to its maximum, ~7 MB never used again. Afterwards it may
//   grow again under load (turns), as V8 decides;
// - V8's optimizing compiler (Turbofan) optimizes nothing while it starts and in the 31 s after:
//   start-up code runs once, yet a few functions got hot (node's own path helpers, used by every
//   module load), and optimizing them paged about 3.5 MB of the compiler's machine code in from
//   node's binary, which an idle process then kept resident. Released right after the start, the
//   helpers' next call (a late module load, the first backup round) still optimized them: V8 does
//   not forget how hot a function was. Later, under load, it optimizes as usual. A turn ends this
//   window at once (endStartupMemoryWindow). Channels do not: with their platform libraries loaded
//   from V8's code cache, optimizing while they load and connect only cost time (five channels:
//   connected ~80-160 ms later, ~200 ms more CPU) and memory (~6 MB idle: Turbofan's pages, and
//   its large zones, which raise glibc's mmap threshold when freed).
//   (`--turbo-filter=-*`, not `--no-turbofan`: V8 still optimizes a small hot function that its
//   baseline code marks without that flag.)
// - V8's memory reducer returns the start-up garbage (~4 MB: fragmented old-space pages, a grown
//   young generation) at its first check, about 8 s after the last full collection, only when it
//   finds the allocation rate low; when the end of the start was still in that window (a busy
//   machine) it waited 8 s more, or 30 s for its watchdog. From 1 s to 31 s after the start the
//   gateway has V8 favour memory (`--optimize-for-size`), which makes that first check collect.
//   (A forced full collection does not help: it keeps the committed pages, and postpones the
//   reducer by 8 s.)
import { setFlagsFromString } from "node:v8";

const GROWTH_FLAG = "--semi-space-growth-factor";
/** V8's default growth factor (Node 20-24). */
const DEFAULT_GROWTH = 2;

/** Node flags (directly or through NODE_OPTIONS) by which the user sizes the semi-spaces. */
const SEMI_SPACE_FLAGS = /^--(semi-space|max-semi-space|min-semi-space)/;
/** ... by which they choose the compiler tiers. */
const OPTIMIZER_FLAGS = /^--(no-)?(opt|turbofan|turbo-filter|jitless|max-opt|always-turbofan|always-opt|maglev)\b/;
/** ... and by which they trade speed for memory. */
const SIZE_FLAGS = /^--(no-)?optimize-for-size\b/;

/** When, after the release, V8 favours memory (default `memoryWindowMs`). */
export const IDLE_MEMORY_WINDOW_MS: readonly [number, number] = [1_000, 31_000];

/** True when one of node's flags (`execArgv`, then NODE_OPTIONS) matches `pattern`. */
function userFlag(pattern: RegExp, execArgv: readonly string[], nodeOptions: string | undefined): boolean {
  return [...execArgv, ...(nodeOptions ?? "").split(/\s+/)].some((arg) => pattern.test(arg.replace(/_/g, "-")));
}

export interface StartupMemoryOptions {
  /** Node's flags (default `process.execArgv`); a compiler or semi-space flag there is left alone. */
  execArgv?: readonly string[];
  /** Default `process.env.NODE_OPTIONS`, checked like `execArgv`. */
  nodeOptions?: string | undefined;
  /** From when to when after the release V8 favours memory, in ms (default 1 s to 31 s). */
  memoryWindowMs?: readonly [number, number];
}

/** Ends the current hold's memory window at once; undefined while no window is pending. */
let endWindow: (() => void) | undefined;

/** The hold not yet released: a second {@link holdStartupMemory} joins it. */
let pending: { release: () => Promise<void>; atRelease: (() => void)[] } | undefined;

/**
 * Holds the process's start-up memory settings (see the top of this file) until the returned
 * function is called, when the gateway has started. Then the young generation may grow again at
 * once; V8 favours memory from `memoryWindowMs[0]` and, at `memoryWindowMs[1]` (or at
 * {@link endStartupMemoryWindow}), drops that and lets Turbofan optimize again; the returned
 * promise resolves then (its timers do not keep the process alive). Calling it again returns the
 * same promise. A process started with its own compiler, semi-space or `--optimize-for-size`
 * flags keeps them. While a hold is not yet released, another call joins it (its options are not
 * used) and returns the same function: the bin holds from its first line (scripts/bin-loader.cjs),
 * the gateway's command then takes that hold over.
 */
export function holdStartupMemory(options: StartupMemoryOptions = {}): () => Promise<void> {
  if (pending) return pending.release;
  const execArgv = options.execArgv ?? process.execArgv;
  const nodeOptions = "nodeOptions" in options ? options.nodeOptions : process.env.NODE_OPTIONS;
  const holdSemiSpaces = !userFlag(SEMI_SPACE_FLAGS, execArgv, nodeOptions);
  if (holdSemiSpaces) setFlagsFromString(`${GROWTH_FLAG}=1`);
  const holdOptimizer = !userFlag(OPTIMIZER_FLAGS, execArgv, nodeOptions);
  if (holdOptimizer) setFlagsFromString("--turbo-filter=-*");
  const favourMemory = !userFlag(SIZE_FLAGS, execArgv, nodeOptions);
  const [from, to] = options.memoryWindowMs ?? IDLE_MEMORY_WINDOW_MS;
  let favouring = false;
  const timers: NodeJS.Timeout[] = [];
  let ended = false;
  let resolveReleased: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (resolveReleased = resolve));
  const end = () => {
    if (ended) return;
    ended = true;
    for (const timer of timers) clearTimeout(timer);
    if (favouring) setFlagsFromString("--no-optimize-for-size");
    if (holdOptimizer) setFlagsFromString("--turbo-filter=*");
    if (endWindow === end) endWindow = undefined;
    resolveReleased();
  };
  endWindow = end;
  const atRelease: (() => void)[] = [];
  let releasing = false;
  const release = () => {
    if (releasing) return released;
    releasing = true;
    // Only this hold can be pending: another is made only once this one is released.
    pending = undefined;
    // The callbacks see V8's flags as the hold set them, whether or not the window ended since.
    const holdAgain = holdOptimizer && ended && atRelease.length > 0;
    if (holdAgain) setFlagsFromString("--turbo-filter=-*");
    for (const callback of atRelease.splice(0)) {
      try {
        callback();
      } catch {
        // A callback's failure (the code cache not written) must not stop the gateway.
      }
    }
    if (holdAgain) setFlagsFromString("--turbo-filter=*");
    if (holdSemiSpaces) setFlagsFromString(`${GROWTH_FLAG}=${DEFAULT_GROWTH}`);
    if (ended) return released;
    const start = setTimeout(() => {
      favouring = favourMemory;
      if (favouring) setFlagsFromString("--optimize-for-size");
      timers.push(setTimeout(end, to - from).unref());
    }, from).unref();
    timers.push(start);
    return released;
  };
  pending = { release, atRelease };
  return release;
}

/**
 * Runs `callback` once, when the pending hold is released (the gateway has started), before the
 * hold changes any of V8's flags back: V8 flags are then exactly as the hold set them when it
 * began. The bin writes the gateway's code cache there, which V8 accepts only under the flags it
 * was read with (scripts/bin-loader.cjs). Without a pending hold it runs at once. A callback that
 * throws is ignored.
 */
export function atStartupMemoryRelease(callback: () => void): void {
  if (pending) pending.atRelease.push(callback);
  else callback();
}

/**
 * Ends the start-up memory window now, for a gateway that has work: a turn to run. Turbofan
 * optimizes again and V8 stops favouring memory; the young generation's hold stays until the
 * gateway has started. Does nothing when no hold is active.
 */
export function endStartupMemoryWindow(): void {
  endWindow?.();
}
