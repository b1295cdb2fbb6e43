import type { AgentRuntime } from "../agent/index.js";
import type { OpenClawConfig } from "../config/index.js";
import type { SecretScrubber } from "../redaction/index.js";
import type { ConfigReloadReport } from "../tools/index.js";
import type { AccountManager } from "./account-manager.js";
import { planReload } from "./reload-plan.js";
import type { GatewayLogger } from "./types.js";

/** Replaces every key of `target` by those of `source`, keeping the object (its holders see the new values). */
function replaceContents(target: Record<string, unknown>, source: Record<string, unknown>): void {
  for (const key of Object.keys(target)) if (!(key in source)) delete target[key];
  Object.assign(target, source);
}

/**
 * Applies a reloaded, valid config to a running gateway. The gateway's config object is shared
 * by the runtime, the queue and the inbound pipeline, so its contents are replaced in place: the
 * access gate, routing and queue settings apply to the next message, agent, model and tool
 * settings to the next turn (`AgentRuntime.configChanged`). Channel accounts whose config changed
 * restart one at a time, in the background, once no inbound message is in flight. Changes to `gateway.*` and `plugins` are logged as needing a restart and
 * not applied.
 */
export function createConfigApplier(deps: {
  config: OpenClawConfig;
  configPath: string;
  runtime: AgentRuntime;
  accounts: AccountManager;
  scrubber: SecretScrubber;
  log: GatewayLogger;
  /** Resolves when no inbound message is in flight: accounts restart only then, so no reply is cut off. */
  settled(): Promise<void>;
  /** False once the gateway stops: pending account restarts are skipped. */
  running(): boolean;
}): (next: unknown) => Promise<ConfigReloadReport> {
  const { config, configPath, runtime, accounts, scrubber, log } = deps;
  // Account restarts run one reload after the other, in the background: the reload that asked
  // for them may come from a turn (the gateway tool) whose reply must be delivered first.
  let restarts: Promise<void> = Promise.resolve();
  const restartAccounts = async () => {
    await deps.settled();
    if (!deps.running()) return;
    const restarted = await accounts.reconcile(config.channels as Record<string, unknown>);
    if (restarted.length > 0) log.info(`config reload: restarted account${restarted.length === 1 ? "" : "s"} ${restarted.join(", ")}`);
  };
  return async (next) => {
    const plan = planReload(config, next);
    if (plan.needsRestart.length > 0) {
      log.warn(
        `config reload: ${plan.needsRestart.join(", ")} changed in ${configPath}; that needs a restart of the gateway ` +
          "(stop it and run `openclaw gateway` again); until then it keeps the running value",
      );
    }
    if (plan.applied.length === 0) {
      return { outcome: "unchanged", applied: [], needsRestart: plan.needsRestart };
    }
    scrubber.addConfig(plan.live);
    replaceContents(config as unknown as Record<string, unknown>, plan.live);
    runtime.configChanged();
    log.info(`config reload: applied ${plan.applied.join(", ")} from ${configPath} without a restart`);
    if (plan.applied.some((p) => p.startsWith("channels."))) {
      restarts = restarts
        .then(restartAccounts)
        .catch((err) => log.error(`config reload: restarting accounts failed: ${(err as Error).message}`));
    }
    return { outcome: "applied", applied: plan.applied, needsRestart: plan.needsRestart };
  };
}
