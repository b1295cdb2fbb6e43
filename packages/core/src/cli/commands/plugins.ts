import type { Command } from "commander";
import type { CliContext } from "../context.js";

/** The implementation (discovery, npm, the config module), imported only when a plugins command runs. */
const actions = () => import("../actions/plugins.js");

/** `openclaw plugins list|install|enable|disable`: the channel plugins this install can load. */
export function registerPlugins(program: Command, ctx: CliContext): void {
  const plugins = program
    .command("plugins")
    .description("list, install, enable and disable channel plugins (changes apply at the next gateway start)");

  plugins
    .command("list", { isDefault: true })
    .description(
      "list the plugins found (project dependencies, <stateDir>/extensions, plugins.load.paths), whether each loads and why, and its SDK range",
    )
    .option("--json", "print JSON instead of text")
    .action(async (opts: { json?: boolean }) => (await actions()).listPluginsCommand(ctx, opts));

  plugins
    .command("install")
    .description("install a plugin into <stateDir>/extensions with npm; it uses this OpenClaw's @openclaw/plugin-sdk (no second copy)")
    .argument("<package-spec>", "a package name (name@version), a .tgz tarball path, or a local plugin folder")
    .action(async (spec: string) => (await actions()).installPluginCommand(ctx, spec));

  plugins
    .command("enable")
    .description("set plugins.entries.<id>.enabled to true in the config file")
    .argument("<id>", "the plugin id shown by `openclaw plugins list`")
    .action(async (id: string) => (await actions()).setPluginEnabledCommand(ctx, id, true));

  plugins
    .command("disable")
    .description("set plugins.entries.<id>.enabled to false: the plugin stays installed but does not load")
    .argument("<id>", "the plugin id shown by `openclaw plugins list`")
    .action(async (id: string) => (await actions()).setPluginEnabledCommand(ctx, id, false));
}
