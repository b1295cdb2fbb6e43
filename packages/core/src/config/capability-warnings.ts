// Config validation: streaming settings that cannot work on a channel, in words a user can act on.
import type { ChannelCapabilities } from "@openclaw/plugin-sdk";
import { type DeliveryPolicy, isPlainObject } from "@openclaw/plugin-sdk/config";

/** The capabilities `previewModeWarnings` looks at. */
export type StreamingCapabilities = Pick<ChannelCapabilities, "edit" | "delete" | "textLimit" | "editLimit" | "nativeStream">;

/** Options of `previewModeWarnings`. */
export interface PreviewModeWarningOptions {
  /** Config path of the `streaming` object (default `channels.<channelId>.streaming`). */
  path?: string;
  /**
   * The channel's delivery policy. With `blockReplies: "unless-off"` a non-off mode means block
   * replies, which need no edits, so a channel that cannot edit is not warned about it.
   */
  policy?: Pick<DeliveryPolicy, "blockReplies">;
}

/**
 * Warnings for a `channels.<id>.streaming` object (or an account's) whose settings the channel
 * cannot honour: a preview mode on a channel that cannot edit, a progress draft that cannot be
 * deleted, `nativeTransport` without a native stream, a preview chunk above the edit limit.
 * Returns `[]` when everything can work (or `streamingConfig` is not an object).
 */
export function previewModeWarnings(
  channelId: string,
  streamingConfig: unknown,
  capabilities: StreamingCapabilities,
  options: PreviewModeWarningOptions = {},
): string[] {
  if (!isPlainObject(streamingConfig)) return [];
  const path = options.path ?? `channels.${channelId}.streaming`;
  const warnings: string[] = [];
  const mode = streamingConfig.mode;
  if (typeof mode === "string" && mode !== "off") {
    if (!capabilities.edit && options.policy?.blockReplies !== "unless-off") {
      warnings.push(
        `${path}.mode is "${mode}", but ${channelId} cannot edit messages, so no live preview is shown and the reply is sent when it is ready. Set ${path}.mode to "off" (or remove it) to silence this warning.`,
      );
    } else if (mode === "progress" && !capabilities.delete) {
      warnings.push(
        `${path}.mode is "progress", but ${channelId} cannot delete messages, so the status draft stays in the chat after the reply. Use "partial" to get a preview that becomes the reply.`,
      );
    }
  }
  if (streamingConfig.nativeTransport === true && capabilities.nativeStream === undefined) {
    warnings.push(
      `${path}.nativeTransport is true, but ${channelId} has no native stream, so replies are delivered the ordinary way. Remove ${path}.nativeTransport.`,
    );
  }
  const preview = streamingConfig.preview;
  const chunk = isPlainObject(preview) ? preview.chunk : undefined;
  const maxChars = isPlainObject(chunk) ? chunk.maxChars : undefined;
  const editLimit = Math.min(capabilities.editLimit ?? capabilities.textLimit, capabilities.textLimit);
  if (capabilities.edit && typeof maxChars === "number" && maxChars > editLimit) {
    warnings.push(
      `${path}.preview.chunk.maxChars is ${maxChars}, above the ${editLimit} characters a ${channelId} message can hold after an edit; ${editLimit} is used.`,
    );
  }
  return warnings;
}
