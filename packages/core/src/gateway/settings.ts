import type { GatewayBind } from "./types.js";
import { UserError } from "../config/paths.js";
import { ensureGatewayTokenFile, gatewayTokenPath } from "./token-file.js";

/** The default control API port. */
export const DEFAULT_GATEWAY_PORT = 18789;

/** The slice of the config the gateway settings read; raw JSON and the validated config both fit. */
export interface GatewayConfigView {
  gateway?: {
    port?: number;
    bind?: string;
    auth?: { mode?: string; token?: string };
    controlUi?: { enabled?: boolean; basePath?: string };
  };
}

/** Shortest token accepted from `--token` or the environment (the schema demands the same of `gateway.auth.token`). */
export const MIN_TOKEN_LENGTH = 16;

function parsePort(value: string | number, where: string): number {
  const n = typeof value === "number" ? value : /^\s*\d+\s*$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isInteger(n) || n < 0 || n > 65535) {
    throw new UserError(
      `${where} is ${JSON.stringify(value)}, which is not a port; use a whole number from 1 to 65535 (0 picks a free port).`,
      2,
    );
  }
  return n;
}

/**
 * The control API port: `--port` > `OPENCLAW_GATEWAY_PORT` > `gateway.port` > 18789. Port 0
 * asks the system for a free port. An invalid value is a UserError naming where it came from.
 */
export function resolveGatewayPort(config: GatewayConfigView, env: NodeJS.ProcessEnv, flag?: number | string): number {
  if (flag !== undefined) return parsePort(flag, "--port");
  const fromEnv = env.OPENCLAW_GATEWAY_PORT;
  if (fromEnv !== undefined && fromEnv.trim() !== "") return parsePort(fromEnv, "OPENCLAW_GATEWAY_PORT");
  return config.gateway?.port ?? DEFAULT_GATEWAY_PORT;
}

/** `--bind` > `gateway.bind` > `"loopback"`. */
export function resolveGatewayBind(config: GatewayConfigView, flag?: string): GatewayBind {
  const value = flag ?? config.gateway?.bind ?? "loopback";
  if (value !== "loopback" && value !== "lan") {
    throw new UserError(
      `${flag !== undefined ? "--bind" : "gateway.bind"} is ${JSON.stringify(value)}; use "loopback" (127.0.0.1 only, the default) or "lan" (all interfaces, needs a token).`,
      2,
    );
  }
  return value;
}

/** The host a bind listens on. */
export function bindHost(bind: GatewayBind): string {
  return bind === "lan" ? "0.0.0.0" : "127.0.0.1";
}

/** How clients authenticate, and where the token came from. */
export interface GatewayAuth {
  mode: "token" | "none";
  /** Undefined only with mode "none". */
  token?: string;
  source?: "flag" | "config" | "env" | "file" | "generated";
}

export interface ResolveAuthInput {
  config: GatewayConfigView;
  env: NodeJS.ProcessEnv;
  bind: GatewayBind;
  stateDir: string;
  configPath: string;
  /** `--token`. */
  flag?: string;
}

function checkToken(token: string, where: string): string {
  if (token.trim().length < MIN_TOKEN_LENGTH) {
    throw new UserError(
      `${where} is too short: use at least ${MIN_TOKEN_LENGTH} characters (or leave it unset to let the gateway generate one).`,
      2,
    );
  }
  return token.trim();
}

/**
 * The control API auth: `--token` > `gateway.auth.token` > `OPENCLAW_GATEWAY_TOKEN` > the token
 * kept in `<stateDir>/gateway.token` (generated on first start, mode 0600, so the CLI finds it).
 * `gateway.auth.mode: "none"` needs no token, and is refused with a UserError on a non-loopback
 * bind; `--token` switches token auth on even when the mode is "none".
 */
export function resolveGatewayAuth(input: ResolveAuthInput): GatewayAuth {
  const { config, env, bind } = input;
  if (input.flag !== undefined) return { mode: "token", token: checkToken(input.flag, "--token"), source: "flag" };
  const mode = config.gateway?.auth?.mode ?? "token";
  if (mode === "none") {
    if (bind !== "loopback") {
      throw new UserError(
        `The gateway refuses to listen on all interfaces (bind "lan") without auth: gateway.auth.mode is "none" in ${input.configPath}, ` +
          `so anyone on your network could drive the agent and its tools. Set gateway.auth.mode to "token" ` +
          `(a token is generated and kept in ${gatewayTokenPath(input.stateDir)}), pass --token, or bind to loopback.`,
        2,
      );
    }
    return { mode: "none" };
  }
  if (mode !== "token") {
    throw new UserError(
      `gateway.auth.mode is ${JSON.stringify(mode)} in ${input.configPath}; use "token" (default) or "none" (loopback only).`,
      2,
    );
  }
  const fromConfig = config.gateway?.auth?.token;
  if (typeof fromConfig === "string" && fromConfig !== "")
    return { mode, token: checkToken(fromConfig, `gateway.auth.token in ${input.configPath}`), source: "config" };
  const fromEnv = env.OPENCLAW_GATEWAY_TOKEN;
  if (fromEnv !== undefined && fromEnv !== "") return { mode, token: checkToken(fromEnv, "OPENCLAW_GATEWAY_TOKEN"), source: "env" };
  const file = ensureGatewayTokenFile(input.stateDir);
  return { mode, token: file.token, source: file.created ? "generated" : "file" };
}
