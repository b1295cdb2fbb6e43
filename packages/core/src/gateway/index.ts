// Public surface of the gateway concern: the long-running process (accounts, control API,
// shutdown) and the control API client the CLI uses. Other folders import from here only.
import type { Gateway, GatewayOptions } from "./types.js";

/**
 * Starts the gateway (see gateway.ts for the sequence). Loaded on demand so that control API
 * clients (`openclaw status`) importing this index do not load the agent runtime.
 */
export async function startGateway(options: GatewayOptions): Promise<Gateway> {
  return (await import("./gateway.js")).startGateway(options);
}
export { DEFAULT_SHUTDOWN_TIMEOUT_MS, GATEWAY_EVENTS } from "./constants.js";
export type {
  AccountDirectory,
  AccountHandle,
  AccountStatusReport,
  ChannelStatusReport,
  Gateway,
  GatewayBind,
  GatewayLogger,
  GatewayOptions,
  InboundPipeline,
  PipelineDeps,
  PipelineFactory,
  PluginDiscovery,
} from "./types.js";
export type { AccountManager, AccountManagerOptions } from "./account-manager.js";
export { Backoff, DEFAULT_BACKOFF, type BackoffPolicy } from "./backoff.js";
export { CursorStore, type AccountCursor } from "./cursor-store.js";
export {
  resolveGatewayPort,
  resolveGatewayBind,
  resolveGatewayAuth,
  bindHost,
  DEFAULT_GATEWAY_PORT,
  MIN_TOKEN_LENGTH,
  type GatewayAuth,
  type GatewayConfigView,
} from "./settings.js";
export { gatewayTokenPath, readGatewayTokenFile, ensureGatewayTokenFile } from "./token-file.js";
export { accountCredentialsDir, loginCommandFor, resolveLoginTarget, type LoginTarget } from "./account-login.js";
export { gatewayRecordPath, readLiveGatewayRecord, type GatewayRunRecord } from "./run-record.js";
export { redactSecrets, isSecretKey, REDACTED } from "../redaction/index.js";
export {
  PROTOCOL_VERSION,
  MAX_PAYLOAD_BYTES,
  MAX_PREAUTH_BYTES,
  ControlError,
  type ErrorCode,
  type ErrorShape,
  type EventFrame,
  type RequestFrame,
  type ResponseFrame,
  type ServerFrame,
} from "./protocol.js";
export type { ControlRunResult } from "./control-runs.js";
export { GatewayClient, GatewayRequestError, GatewayUnavailableError, type GatewayClientOptions } from "./client.js";
export { resolveControlUiLink, resolveGatewayClientTarget, type ControlUiLink, type GatewayClientTarget } from "./client-target.js";
export { createStreamLogger, silentLogger } from "./log.js";
export type { ConfigReloadReport } from "../tools/index.js";
export { connectToGateway } from "./connect.js";
