// `openclaw gateway`, loaded only when it runs.
import { UserError } from "../../config/index.js";
import { startGatewayProcess } from "../../app/index.js";
import { createStreamLogger, resolveGatewayBind, resolveGatewayPort } from "../../gateway/index.js";
import type { CliContext } from "../context.js";
import { coreVersion } from "../version.js";

export interface GatewayCommandOptions {
  port?: string;
  bind?: string;
  token?: string;
}

/**
 * Runs the gateway in the foreground, logging one line per event to stderr. SIGTERM or SIGINT
 * stops it gracefully (in-flight runs and deliveries get up to 10 s) and the process exits 0; a
 * second signal exits at once with code 130.
 */
export async function runGatewayCommand(ctx: CliContext, opts: GatewayCommandOptions): Promise<void> {
  const log = createStreamLogger(ctx.stderr);
  // Flags are checked before anything opens, so a typo never half-starts the gateway.
  const port = opts.port !== undefined ? resolveGatewayPort({}, {}, opts.port) : undefined;
  const bind = opts.bind !== undefined ? resolveGatewayBind({}, opts.bind) : undefined;
  if (opts.token !== undefined && opts.token.trim() === "")
    throw new UserError("--token is empty; pass the token, or leave --token out to use the configured or generated one.", 2);

  const gateway = await startGatewayProcess({
    paths: ctx.paths(),
    version: coreVersion(),
    log,
    ...(port !== undefined ? { port } : {}),
    ...(bind !== undefined ? { bind } : {}),
    ...(opts.token !== undefined ? { token: opts.token } : {}),
  });
  if (gateway.controlUiUrl) {
    ctx.stdout.write(`Control UI: ${gateway.controlUiUrl} (open it signed in with \`openclaw dashboard\`)\n`);
  }

  await new Promise<void>((resolve) => {
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
  // Everything is closed; a library's idle keep-alive socket must not hold the process open.
  setTimeout(() => process.exit(process.exitCode ?? 0), 1000).unref();
}
