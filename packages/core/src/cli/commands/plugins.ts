import type { Command } from "commander";
// The generated first-party table is plain data (no zod, no SDK at run time): cheap for --help.
import { FIRST_PARTY_CHANNELS } from "../../config/first-party-channels.js";
import type { CliContext } from "../context.js";

/** The implementation (discovery, npm, the config module), imported only when a plugins command runs. */
const actions = () => import("../actions/plugins.js");

/** `openclaw plugins list|install|uninstall|enable|disable`: the channel plugins this install can load. */
export function registerPlugins(program: Command, ctx: CliContext): void {
  const plugins = program
    .command("plugins")
    .description("list, install, uninstall, enable and disable channel plugins (changes apply at the next gateway start)");

  plugins
    .command("list", { isDefault: true })
    .description(
      "list the plugins found (project dependencies, <stateDir>/extensions, plugins.load.paths), whether each loads (or is broken) and why, and its SDK range",
    )
    .option("--json", "print JSON instead of text")
    .action(async (opts: { json?: boolean }) => (await actions()).listPluginsCommand(ctx, opts));

  plugins
    .command("install")
    .description(
      "install a plugin into <stateDir>/extensions (a copy, never a link to its folder); it uses this OpenClaw's @openclaw/plugin-sdk and zod (no second copy)",
    )
    .argument(
      "<spec>",
      `a first-party channel's short name (${FIRST_PARTY_CHANNELS.map((c) => c.id).join(", ")}: from this checkout's extensions/ folder), a plugin folder, a .tgz tarball, or an npm package outside the @openclaw scope`,
    )
    .action(async (spec: string) => (await actions()).installPluginCommand(ctx, spec));

  plugins
    .command("uninstall")
    .description(
      "remove a plugin installed with `plugins install` (the config file is left as it is; the other plugins keep this OpenClaw's SDK and zod)",
    )
    .argument("<id>", "the plugin id shown by `openclaw plugins list`, or its package name")
    .action(async (id: string) => (await actions()).uninstallPluginCommand(ctx, id));

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
