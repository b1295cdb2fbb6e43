import type { ChannelConfigDefinition } from "@openclaw/plugin-sdk/config";

/** What a reload of the running gateway did (the `gateway` tool's `reload` action, `Gateway.reloadConfig`). */
export interface ConfigReloadReport {
  /** `unchanged`: the file equals the running config; `invalid`: the running config was kept. */
  outcome: "applied" | "unchanged" | "invalid";
  /** Config paths that took effect without a restart (e.g. `agents`, `channels.telegram`). */
  applied: string[];
  /** Config paths that changed but only take effect after a gateway restart (`gateway.port`, `gateway.bind`, `gateway.auth`, ...). */
  needsRestart: string[];
  /** Outcome `invalid`: every problem, with the file and the keys. */
  problems?: string;
}

/** What the `gateway` tool needs from the process it runs in. */
export interface GatewayToolHost {
  /** The config file patches are written to. */
  configPath: string;
  /** For `${VAR}` substitution while validating; default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Channel config definitions of the loaded plugins (validation of `channels.<id>`); default none. */
  channels?: readonly ChannelConfigDefinition[];
  /** Reloads the running gateway now; absent when no gateway runs in this process (`openclaw agent --local`, `openclaw context`). */
  reload?(): Promise<ConfigReloadReport>;
}
