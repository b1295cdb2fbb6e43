import type { Command } from "commander";
import type { CliContext } from "../context.js";

/** The implementation (zod schema, JSON5, includes), imported only when a config command runs. */
const actions = () => import("../actions/config.js");

export function registerConfig(program: Command, ctx: CliContext): void {
  const config = program.command("config").description("read, change and check openclaw.json");

  config
    .command("validate")
    .description("check the config against the schema; exits non-zero and lists every problem if it is invalid")
    .option("--json", "print the result as JSON")
    .action(async (opts: { json?: boolean }) => (await actions()).validateConfigCommand(ctx, opts));

  config
    .command("get")
    .description("print the effective value at a config path (defaults included), e.g. agents.defaults.model")
    .argument("<path>", 'dotted path; brackets for odd keys: agents.entries["my.agent"]')
    .option("--json", "print the value as JSON")
    .option("--show-secrets", "print tokens, keys, passwords and credentials in URLs and headers as they are (default: ***)")
    .action(async (pathText: string, opts: { json?: boolean; showSecrets?: boolean }) =>
      (await actions()).getConfigValue(ctx, pathText, opts),
    );

  config
    .command("set")
    .description("set a value (JSON5; a bare word is a string) after checking that the result is valid")
    .argument("<path>", "dotted config path, e.g. channels.<id>.streaming.mode")
    .argument("<value>", 'JSON5 value: true, 42, "text", {mode: "partial"}, or a bare word')
    .action(async (pathText: string, valueText: string) => (await actions()).setConfigValue(ctx, pathText, valueText));

  config
    .command("unset")
    .description("remove a value from the config file (it falls back to its default)")
    .argument("<path>", "dotted config path")
    .action(async (pathText: string) => (await actions()).unsetConfigValue(ctx, pathText));

  config
    .command("schema")
    .description("print the JSON Schema of openclaw.json (generated from the zod schema)")
    .action(async () => (await actions()).printConfigSchema(ctx));
}
