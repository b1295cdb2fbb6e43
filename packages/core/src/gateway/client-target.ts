import type { OpenClawPaths } from "../config/index.js";
import { readConfigSource, resolveConfigSource } from "../config/index.js";
import { normalizeBasePath } from "./control-ui.js";
import { DEFAULT_GATEWAY_PORT, type GatewayConfigView } from "./settings.js";
import { readLiveGatewayRecord } from "./run-record.js";
import { readGatewayTokenFile } from "./token-file.js";

/** Where a CLI command finds the running gateway, and how it authenticates. */
export interface GatewayClientTarget {
  url: string;
  token?: string;
  /** Where the URL came from: `--url`, the environment, the running gateway's record, the config, or the default. */
  urlSource: "flag" | "env" | "record" | "config" | "default";
}

/**
 * Reads only the `gateway` block of the config, leniently: a config that does not validate (or
 * does not parse) must not stop `openclaw status` from reaching the gateway.
 */
async function readGatewayBlock(paths: OpenClawPaths, env: NodeJS.ProcessEnv): Promise<GatewayConfigView> {
  try {
    const source = await readConfigSource(paths.configPath);
    if (!source.exists) return {};
    const resolved = (await resolveConfigSource(source.raw, { file: paths.configPath, env })) as GatewayConfigView;
    return resolved && typeof resolved === "object" ? { ...(resolved.gateway ? { gateway: resolved.gateway } : {}) } : {};
  } catch {
    return {};
  }
}

/**
 * The gateway a CLI command talks to:
 * - URL: `--url` > `OPENCLAW_GATEWAY_URL` > `ws://127.0.0.1:<port>` with port from
 *   `OPENCLAW_GATEWAY_PORT` > the running gateway's `<stateDir>/gateway.json` (ignored when its
 *   pid is not alive) > `gateway.port` > 18789;
 * - token (same order as the gateway): `--token` > `gateway.auth.token` > `OPENCLAW_GATEWAY_TOKEN`
 *   > `<stateDir>/gateway.token`; none when nothing is set.
 */
export async function resolveGatewayClientTarget(input: {
  paths: OpenClawPaths;
  env?: NodeJS.ProcessEnv;
  url?: string;
  token?: string;
}): Promise<GatewayClientTarget> {
  const env = input.env ?? process.env;
  const config = await readGatewayBlock(input.paths, env);
  const { url, urlSource } = clientUrl(input, env, config);
  const configToken =
    typeof config.gateway?.auth?.token === "string" && config.gateway.auth.token !== "" ? config.gateway.auth.token : undefined;
  const token = input.token ?? configToken ?? (env.OPENCLAW_GATEWAY_TOKEN || undefined) ?? readGatewayTokenFile(input.paths.stateDir);
  return token !== undefined ? { url, token, urlSource } : { url, urlSource };
}

function clientUrl(
  input: { paths: OpenClawPaths; url?: string },
  env: NodeJS.ProcessEnv,
  config: GatewayConfigView,
): Pick<GatewayClientTarget, "url" | "urlSource"> {
  if (input.url) return { url: input.url, urlSource: "flag" };
  if (env.OPENCLAW_GATEWAY_URL) return { url: env.OPENCLAW_GATEWAY_URL, urlSource: "env" };
  const local = (port: number) => `ws://127.0.0.1:${port}/`;
  const envPort = env.OPENCLAW_GATEWAY_PORT?.trim();
  if (envPort && /^\d+$/.test(envPort)) return { url: local(Number(envPort)), urlSource: "env" };
  const running = readLiveGatewayRecord(input.paths.stateDir);
  if (running) return { url: local(running.port), urlSource: "record" };
  if (typeof config.gateway?.port === "number") return { url: local(config.gateway.port), urlSource: "config" };
  return { url: local(DEFAULT_GATEWAY_PORT), urlSource: "default" };
}

/** Where the Control UI of the local gateway opens, as `openclaw dashboard` prints it. */
export interface ControlUiLink {
  /** `http://127.0.0.1:<port><basePath>`, the port found like the CLI finds the gateway. */
  url: string;
  /** `url` + `#token=<token>` (the fragment never reaches the server's logs); `url` without a token. */
  link: string;
  /** False when `gateway.controlUi.enabled` is false in the config. */
  enabled: boolean;
  /** Where the port came from (see `resolveGatewayClientTarget`). */
  urlSource: GatewayClientTarget["urlSource"];
}

/**
 * The link that opens the Control UI signed in: the gateway's port and token found as for any CLI
 * command (`resolveGatewayClientTarget`; a `ws://` URL from OPENCLAW_GATEWAY_URL keeps its host),
 * the config's `gateway.controlUi.basePath`.
 */
export async function resolveControlUiLink(input: { paths: OpenClawPaths; env?: NodeJS.ProcessEnv }): Promise<ControlUiLink> {
  const env = input.env ?? process.env;
  const target = await resolveGatewayClientTarget({ paths: input.paths, env });
  const block = (await readGatewayBlock(input.paths, env)).gateway?.controlUi;
  const ws = new URL(target.url);
  const url = `${ws.protocol === "wss:" ? "https:" : "http:"}//${ws.host}${normalizeBasePath(block?.basePath)}`;
  return {
    url,
    link: target.token !== undefined ? `${url}#token=${encodeURIComponent(target.token)}` : url,
    enabled: block?.enabled !== false,
    urlSource: target.urlSource,
  };
}
