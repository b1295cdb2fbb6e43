// `openclaw gateway`, loaded only when it runs. It binds the control port first and imports the
// rest of the gateway after that, so the port accepts connections as early as possible.
import { UserError } from "../../config/paths.js";
import { bindControlPortEarly } from "../../gateway/early-start.js";
import { resolveGatewayBind, resolveGatewayPort } from "../../gateway/settings.js";
import { holdStartupMemory } from "../../gateway/startup-memory.js";
import type { CliContext } from "../context.js";
import { coreVersion } from "../version.js";

export interface GatewayCommandOptions {
  port?: string;
  bind?: string;
  token?: string;
}

/**
 * Runs the gateway in the foreground, logging each event as a JSON line to
 * `<stateDir>/logs/gateway.log` (rotated at 10 MiB, 5 old files kept; `openclaw logs` reads it) and
 * as a readable line to stderr (coloured on a terminal, `[gateway] ...` otherwise). The level is
 * `OPENCLAW_LOG_LEVEL` (default info). SIGTERM or SIGINT
 * stops it gracefully (in-flight runs and deliveries get up to 10 s) and the process exits 0; a
 * second signal exits at once with code 130.
 */
export async function runGatewayCommand(ctx: CliContext, opts: GatewayCommandOptions): Promise<void> {
  // Flags are checked before anything opens, so a typo never half-starts the gateway.
  const port = opts.port !== undefined ? resolveGatewayPort({}, {}, opts.port) : undefined;
  const bind = opts.bind !== undefined ? resolveGatewayBind({}, opts.bind) : undefined;
  if (opts.token !== undefined && opts.token.trim() === "")
    throw new UserError("--token is empty; pass the token, or leave --token out to use the configured or generated one.", 2);
  // An idle gateway must not keep the memory its start used (gateway/startup-memory.ts).
  const releaseStartupMemory = holdStartupMemory();
  // Nothing is served on it before the gateway has started and checked everything.
  const listener = await bindControlPortEarly({
    paths: ctx.paths(),
    env: process.env,
    ...(port !== undefined ? { port } : {}),
    ...(bind !== undefined ? { bind } : {}),
  });
  const [{ startGatewayProcess }, { createGatewayFileLogger, parseLevel }] = await Promise.all([
    import("../../app/index.js"),
    import("../../logging/index.js"),
  ]);
  let log: Awaited<ReturnType<typeof createGatewayFileLogger>>;
  try {
    const level = process.env.OPENCLAW_LOG_LEVEL ? parseLevel(process.env.OPENCLAW_LOG_LEVEL, "OPENCLAW_LOG_LEVEL") : "info";
    log = createGatewayFileLogger({ stateDir: ctx.paths().stateDir, console: ctx.stderr, level });
  } catch (err) {
    await listener?.close();
    throw err;
  }

  const gateway = await startGatewayProcess({
    paths: ctx.paths(),
    version: coreVersion(),
    log,
    ...(listener ? { listener } : {}),
    ...(port !== undefined ? { port } : {}),
    ...(bind !== undefined ? { bind } : {}),
    ...(opts.token !== undefined ? { token: opts.token } : {}),
  });
  releaseStartupMemory();

  // The signal handlers are in place before the gateway says it is up: a supervisor that stops it
  // as soon as it reads the Control UI line gets the graceful shutdown, not node's default exit.
  const stopped = new Promise<void>((resolve) => {
    let signals = 0;
    const onSignal = (signal: NodeJS.Signals) => {
      signals += 1;
      if (signals > 1) {
        log.warn(`${signal} again: exiting without waiting`);
        process.exit(130);
      }
      log.info(`${signal} received; shutting down (send it again to exit at once)`);
      void gateway.stop().then(resolve, (err: unknown) => {
        log.error(`shutdown failed: ${(err as Error)?.message ?? String(err)}`);
        process.exitCode = 1;
        resolve();
      });
    };
    process.on("SIGTERM", onSignal);
    process.on("SIGINT", onSignal);
  });
  if (gateway.controlUiUrl) {
    ctx.stdout.write(`Control UI: ${gateway.controlUiUrl} (open it signed in with \`openclaw dashboard\`)\n`);
  }
  await stopped;
  // Everything is closed; a library's idle keep-alive socket must not hold the process open.
  setTimeout(() => process.exit(process.exitCode ?? 0), 1000).unref();
}
