import type { Command } from "commander";
import type { OnboardOptions } from "../actions/onboard.js";
import type { CliContext } from "../context.js";

/** The wizard (prompts, provider and channel checks), imported only when it runs. */
const actions = () => import("../actions/onboard.js");

const collect = (value: string, previous: string[] = []) => [...previous, value];

/**
 * `openclaw onboard`: the first-run wizard (model provider and key, default model, workspace,
 * channels and their credentials, DM policy, service). Writes the config once, at the end.
 */
export function registerOnboard(program: Command, ctx: CliContext): void {
  program
    .command("onboard")
    .description("set up OpenClaw step by step: model provider and key, workspace, channels, DM policy; writes the config once, at the end")
    .option("--non-interactive", "ask nothing: take every answer from the flags and the environment (for scripts and CI)")
    .option(
      "--provider <id>",
      "model provider: openai, anthropic, openrouter, ollama, deepseek, moonshot, qwen, or custom (any OpenAI-compatible base URL)",
    )
    .option("--provider-id <id>", 'the id a custom provider gets under models.providers (default "custom")')
    .option("--base-url <url>", "the provider's API base URL (default: the preset's; required for custom)")
    .option(
      "--api-key-env <VAR>",
      "the variable holding the API key; saved as a ${VAR} reference (default: the preset's, e.g. OPENAI_API_KEY)",
    )
    .option("--model <id>", "default model, as the provider names it (default: the first the provider lists)")
    .option("--skip-checks", "do not call the provider or the channels to verify the keys")
    .option("--workspace <dir>", "the agent's workspace folder (default ~/.openclaw/workspace)")
    .option(
      "--channel <id>",
      "a channel to set up (repeatable); its credentials come from the variables its docs name, e.g. the default account's token",
      collect,
    )
    .option("--dm-policy <policy>", "who may DM the bot on the chosen channels: pairing (default), allowlist, open or disabled")
    .option("--allow-from <ids>", "comma-separated sender ids allowed to DM (for allowlist)")
    .option(
      "--set <path=value>",
      "any other config value, as `openclaw config set` takes it (repeatable); applied before the checks",
      collect,
    )
    .option("--install-service", "install the gateway as a service at the end (non-interactive)")
    .action(async (opts: OnboardOptions) => (await actions()).runOnboard(ctx, opts));
}
