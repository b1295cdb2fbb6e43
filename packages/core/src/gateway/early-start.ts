// `openclaw gateway` binds its control port before it loads the rest of the gateway (config
// schemas, plugins, databases, agent runtime): only the raw config file is read for the address.
import { readConfigSource } from "../config/io/read.js";
import { resolveConfigSource } from "../config/io/resolve.js";
import type { OpenClawPaths } from "../config/paths.js";
import { type EarlyListener, listenEarly } from "./early-listener.js";
import { bindHost, type GatewayConfigView, resolveGatewayBind, resolveGatewayPort } from "./settings.js";
import type { GatewayBind } from "./types.js";

/**
 * Binds the control port the gateway will use, from the flags, `OPENCLAW_GATEWAY_PORT` and the
 * raw config file's `gateway.port` / `gateway.bind`, and holds connections until the started
 * gateway adopts it (`GatewayOptions.listener`). Best effort: resolves undefined when anything
 * fails (an unreadable or invalid config, a port in use), so the normal start reports the problem
 * with its usual message.
 */
export async function bindControlPortEarly(input: {
  paths: OpenClawPaths;
  env: NodeJS.ProcessEnv;
  port?: number;
  bind?: GatewayBind;
}): Promise<EarlyListener | undefined> {
  try {
    const source = await readConfigSource(input.paths.configPath);
    const raw = source.exists ? await resolveConfigSource(source.raw, { file: input.paths.configPath, env: input.env }) : {};
    const view = (raw !== null && typeof raw === "object" && !Array.isArray(raw) ? raw : {}) as GatewayConfigView;
    const port = resolveGatewayPort(view, input.env, input.port);
    const bind = resolveGatewayBind(view, input.bind);
    // Not yet validated: anything but a port number is left to the normal start to report.
    if (!Number.isInteger(port) || port < 0 || port > 65535) return undefined;
    return await listenEarly(bindHost(bind), port);
  } catch {
    return undefined;
  }
}
