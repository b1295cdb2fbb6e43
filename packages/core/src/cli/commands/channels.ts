import type { Command } from "commander";
import type { ChannelLoginOptions, ChannelLogoutOptions } from "../actions/channel-login.js";
import type { ChannelsStatusOptions } from "../actions/channels.js";
import type { CliContext } from "../context.js";

/** The implementation (the control API client), imported only when the command runs. */
const actions = () => import("../actions/channels.js");

const loginActions = () => import("../actions/channel-login.js");

/**
 * `openclaw channels status`: every channel account as the running gateway sees it;
 * `openclaw channels login|logout <channel>`: link or unlink an account (QR code, pairing code).
 */
export function registerChannels(program: Command, ctx: CliContext): void {
  const channels = program.command("channels").description("inspect channel accounts; link or unlink those that log in by QR code");
  channels
    .command("status")
    .description("show each account's state (connected, reconnecting, error, ...), identity, last error, restarts and last traffic")
    .option("--json", "print the gateway's answer as JSON")
    .option(
      "--url <url>",
      "control API URL (default: OPENCLAW_GATEWAY_URL, else ws://127.0.0.1:<port> with the running gateway's port from <stateDir>/gateway.json)",
    )
    .option("--token <token>", "control API token (default: gateway.auth.token, OPENCLAW_GATEWAY_TOKEN, else <stateDir>/gateway.token)")
    .action(async (opts: ChannelsStatusOptions) => (await actions()).runChannelsStatusCommand(ctx, opts));
  channels
    .command("login")
    .description(
      "link an account of <channel> (a channel that logs in by QR code): shows a QR code to scan with the phone and waits until it is linked; the login state is kept in <stateDir>/credentials/<channel>/<account>",
    )
    .argument("<channel>", "the channel id, as under channels.<id> in the config")
    .option("--account <id>", "the account to link (default: channels.<channel>.defaultAccount, else default)")
    .option(
      "--pairing-code <E.164>",
      "link with a pairing code typed on the phone with this number (e.g. +15551234567) instead of a QR code",
    )
    .option("--timeout <seconds>", "give up when no phone linked within this time (default 300)")
    .option("--verbose", "print the plugin's log lines")
    .action(async (channel: string, opts: ChannelLoginOptions) => (await loginActions()).runChannelsLoginCommand(ctx, channel, opts));
  channels
    .command("logout")
    .description("unlink an account of <channel> and remove its login state; link it again with `openclaw channels login`")
    .argument("<channel>", "the channel id, as under channels.<id> in the config")
    .option("--account <id>", "the account to unlink (default: channels.<channel>.defaultAccount, else default)")
    .option("--verbose", "print the plugin's log lines")
    .action(async (channel: string, opts: ChannelLogoutOptions) => (await loginActions()).runChannelsLogoutCommand(ctx, channel, opts));
}
