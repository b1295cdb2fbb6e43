/**
 * The Matrix channel plugin: config entry, account resolution and `connect`, assembled with
 * `defineChannelPlugin`.
 */
import { AccountConfigError, type ChannelPlugin, defineChannelPlugin, listAccountIds, SPECIFICATION_VERSION } from "@openclaw/plugin-sdk";
import { matrixChannelConfig, type matrixConfigSchema } from "./config.js";

/** Knobs of the plugin; production defaults apply to anything unset. */
export type MatrixPluginOptions = {};

/** The effective settings of one Matrix account (skeleton). */
export interface MatrixAccount {
  accountId: string;
}

/** Builds the Matrix channel plugin; the package's default export is `createMatrixPlugin()`. */
export function createMatrixPlugin(_options: MatrixPluginOptions = {}): ChannelPlugin<MatrixAccount, typeof matrixConfigSchema> {
  return defineChannelPlugin({
    specificationVersion: SPECIFICATION_VERSION,
    id: "matrix",
    meta: {
      label: "Matrix",
      docsPath: "docs/channels/matrix.md",
      blurb: "Matrix on any homeserver: DMs and rooms, threads, end-to-end encryption, live previews by edits.",
    },
    config: matrixChannelConfig,
    listAccounts: (channelConfig) => listAccountIds(channelConfig, false),
    resolveAccount: (input) => ({ accountId: input.accountId }),
    connect: async () => {
      throw new AccountConfigError("channels.matrix: the Matrix session is not implemented yet.", "channels.matrix");
    },
  });
}
