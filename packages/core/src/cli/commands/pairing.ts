import type { Command } from "commander";
import type { PairingOptions } from "../actions/pairing.js";
import type { CliContext } from "../context.js";

/** The implementation (the state database, the pairing store), imported only on use. */
const actions = () => import("../actions/pairing.js");

/** `openclaw pairing list|approve|revoke`: who may DM the bot under `dmPolicy: "pairing"`. */
export function registerPairing(program: Command, ctx: CliContext): void {
  const pairing = program
    .command("pairing")
    .description('approve or revoke people who asked to DM the bot (dmPolicy "pairing"); takes effect at their next message, no restart');

  pairing
    .command("list", { isDefault: true })
    .description("list pending pairing codes (with the time left) and approved senders")
    .option("--channel <id>", "only this channel (its key under channels)")
    .option("--json", "print JSON instead of tables")
    .action(async (opts: PairingOptions) => (await actions()).listPairing(ctx, opts));

  pairing
    .command("approve")
    .description("approve a pairing code: its sender may DM the bot from now on")
    .argument("<channel>", "the channel the code was issued on (as the pairing reply names it)")
    .argument("<code>", "the 8-character code the sender received (case does not matter)")
    .option("--account <id>", "only accept a code issued by this account of the channel")
    .action(async (channel: string, code: string, opts: PairingOptions) => (await actions()).approvePairing(ctx, channel, code, opts));

  pairing
    .command("revoke")
    .description("withdraw an approval: the sender needs a new code to DM the bot again")
    .argument("<channel>", "the channel (its key under channels)")
    .argument("<senderId>", "the approved sender's id, as `openclaw pairing list` shows it")
    .option("--account <id>", "only on this account (default: every account of the channel)")
    .action(async (channel: string, senderId: string, opts: PairingOptions) =>
      (await actions()).revokePairing(ctx, channel, senderId, opts),
    );
}
