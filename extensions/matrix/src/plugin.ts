/**
 * The Matrix channel plugin: config entry, account resolution and `connect`, assembled with
 * `defineChannelPlugin`. matrix-js-sdk is imported only when an account connects.
 */
import { type ChannelPlugin, defineChannelPlugin, SPECIFICATION_VERSION } from "@openclaw/plugin-sdk";
import { listMatrixAccounts, type MatrixAccount, resolveMatrixAccount } from "./account.js";
import { matrixChannelConfig, type matrixConfigSchema } from "./config.js";
import { connectMatrixAccount, type MatrixRuntime } from "./session.js";

/** Knobs of the plugin; production defaults apply to anything unset. */
export interface MatrixPluginOptions {
  /** Makes the SDK client (default: `new MatrixClient(options)` without a send scheduler, so 429s reach the send budget). */
  createClient?: MatrixRuntime["createClient"];
  /** How long `connect` waits for the first sync (default 60 000 ms). */
  firstSyncTimeoutMs?: number;
}

/** Builds the Matrix channel plugin; the package's default export is `createMatrixPlugin()`. */
export function createMatrixPlugin(options: MatrixPluginOptions = {}): ChannelPlugin<MatrixAccount, typeof matrixConfigSchema> {
  const runtime: MatrixRuntime = {
    createClient:
      options.createClient ??
      (async (clientOptions) => {
        const { MatrixClient } = await import("./matrix-sdk.js");
        return new MatrixClient(clientOptions);
      }),
    firstSyncTimeoutMs: options.firstSyncTimeoutMs ?? 60_000,
  };
  return defineChannelPlugin({
    specificationVersion: SPECIFICATION_VERSION,
    id: "matrix",
    meta: {
      label: "Matrix",
      docsPath: "docs/channels/matrix.md",
      blurb: "Matrix on any homeserver: DMs and rooms, threads, end-to-end encryption, live previews by edits.",
    },
    config: matrixChannelConfig,
    listAccounts: listMatrixAccounts,
    resolveAccount: resolveMatrixAccount,
    connect: (ctx) => connectMatrixAccount(ctx, runtime),
  });
}

export type { MatrixAccount };
