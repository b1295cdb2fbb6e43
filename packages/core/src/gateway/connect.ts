import type { OpenClawPaths } from "../config/index.js";
import { UserError } from "../config/index.js";
import { GatewayClient, GatewayRequestError, GatewayUnavailableError } from "./client.js";
import { resolveGatewayClientTarget } from "./client-target.js";
import { gatewayRecordPath } from "./run-record.js";

/**
 * Connects a CLI command to the running gateway (see `resolveGatewayClientTarget` for where the
 * URL and token come from). Throws a UserError (exit 1) that says how to start the gateway when
 * none answers, and how to pass the token when it is refused.
 */
export async function connectToGateway(input: {
  paths: OpenClawPaths;
  env?: NodeJS.ProcessEnv;
  url?: string;
  token?: string;
  timeoutMs?: number;
}): Promise<GatewayClient> {
  const target = await resolveGatewayClientTarget(input);
  try {
    return await GatewayClient.connect(target.url, {
      ...(target.token !== undefined ? { token: target.token } : {}),
      timeoutMs: input.timeoutMs ?? 5000,
    });
  } catch (err) {
    if (err instanceof GatewayUnavailableError) {
      const record =
        target.urlSource === "record"
          ? ` (the gateway recorded in ${gatewayRecordPath(input.paths.stateDir)} does not answer)`
          : ` (none is recorded as running in ${gatewayRecordPath(input.paths.stateDir)})`;
      throw new UserError(
        `No gateway is running at ${target.url}${target.urlSource === "flag" || target.urlSource === "env" ? "" : record}. ` +
          "Start it with `openclaw gateway` (it runs in the foreground) or `openclaw gateway install` (as a service), or point at it with --url / OPENCLAW_GATEWAY_URL.",
        1,
      );
    }
    if (err instanceof GatewayRequestError && err.code === "unauthorized") {
      throw new UserError(
        `The gateway at ${target.url} refused the token. Pass the gateway's token with --token or OPENCLAW_GATEWAY_TOKEN ` +
          `(a generated token is kept in ${input.paths.stateDir}/gateway.token).`,
        1,
      );
    }
    throw err;
  }
}
