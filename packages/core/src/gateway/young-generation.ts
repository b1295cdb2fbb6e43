// V8 doubles its young generation (the semi-spaces where new objects start) whenever many of
// them survive a scavenge, up to 16 MB each, and does not give that memory back to an idle
// process. Loading the gateway (zod schemas, about 2 MB of modules) makes it grow to its maximum,
// so an idle gateway kept ~7 MB it never used again. While the gateway starts the young generation
// stays at its initial size; afterwards it may grow again under load (turns), as V8 decides.
import { setFlagsFromString } from "node:v8";

const GROWTH_FLAG = "--semi-space-growth-factor";
/** V8's default growth factor (Node 20-24). */
const DEFAULT_GROWTH = 2;

/** True when the user tunes the young generation themselves (node flags or NODE_OPTIONS). */
function tunedByUser(execArgv: readonly string[], nodeOptions: string | undefined): boolean {
  return [...execArgv, ...(nodeOptions ?? "").split(/\s+/)].some((arg) =>
    /^--(semi-space|max-semi-space|min-semi-space)/.test(arg.replace(/_/g, "-")),
  );
}

/**
 * Keeps V8's young generation from growing until the returned function is called (then V8's
 * default growth applies again). Does nothing when the process was started with a semi-space
 * flag, directly or through NODE_OPTIONS: the user's setting wins.
 */
export function holdYoungGeneration(execArgv: readonly string[] = process.execArgv, nodeOptions = process.env.NODE_OPTIONS): () => void {
  if (tunedByUser(execArgv, nodeOptions)) return () => undefined;
  setFlagsFromString(`${GROWTH_FLAG}=1`);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    setFlagsFromString(`${GROWTH_FLAG}=${DEFAULT_GROWTH}`);
  };
}
