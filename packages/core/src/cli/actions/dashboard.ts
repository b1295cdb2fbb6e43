// `openclaw dashboard`, loaded only when it runs.
import { UserError } from "../../config/index.js";
import { resolveControlUiLink } from "../../gateway/index.js";
import type { CliContext } from "../context.js";
import { writeJson, writeLine } from "../output.js";

/**
 * Prints the link that opens the Control UI already signed in (the token rides in the URL
 * fragment, which browsers never send to the server). Says so when no gateway is running yet,
 * and refuses when `gateway.controlUi.enabled` is false.
 */
export async function runDashboardCommand(ctx: CliContext, opts: { json?: boolean }): Promise<void> {
  const paths = ctx.paths();
  const link = await resolveControlUiLink({ paths });
  if (!link.enabled) {
    throw new UserError(
      `The Control UI is turned off: gateway.controlUi.enabled is false in ${paths.configPath}; set it to true and restart the gateway.`,
    );
  }
  if (opts.json) {
    writeJson(ctx.stdout, { url: link.url, link: link.link, running: link.urlSource === "record" });
    return;
  }
  writeLine(ctx.stdout, `Open the Control UI (signed in; keep this link private, it holds the gateway token):`);
  writeLine(ctx.stdout, link.link);
  if (link.urlSource === "default" || link.urlSource === "config") {
    writeLine(ctx.stderr, "No running gateway was found; start it with `openclaw gateway`, then open the link.");
  }
}
