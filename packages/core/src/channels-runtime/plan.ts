import type { ChannelCapabilities, ChatKind, StreamingConfig } from "@openclaw/plugin-sdk";
import type { DeliveryPolicy, DeliveryPreviewMode } from "@openclaw/plugin-sdk/config";

/** How one reply reaches a chat. */
export type DeliveryPlan =
  | { kind: "blocks"; reason: string }
  | { kind: "preview"; mode: DeliveryPreviewMode; reason: string }
  | { kind: "native"; reason: string }
  | { kind: "final"; reason: string };

export interface PlanInput {
  /** The channel id, for the reasons only. */
  channel: string;
  /** The channel's delivery policy (from its config entry). */
  policy: DeliveryPolicy;
  /** The account's capabilities in this chat (`AccountHandle.capabilitiesFor`). */
  capabilities: Pick<ChannelCapabilities, "edit" | "nativeStream">;
  /**
   * The `streaming` object of this chat as configured: the account's merged one (root overlaid by
   * the account), or the chat's own from the session (`AccountHandle.streamingFor`).
   */
  streaming: StreamingConfig | undefined;
  /** `agents.defaults.blockStreamingDefault`. */
  blockStreamingDefault: "on" | "off";
  chatKind: ChatKind;
}

/** Whether block replies are on, and why (DESIGN.md's streaming table, per `policy.blockReplies`). */
function blockReplies(input: PlanInput, mode: string): { on: boolean; why: string } {
  const { policy, streaming } = input;
  const explicitMode = streaming?.mode;
  const setting = streaming?.block?.enabled;
  switch (policy.blockReplies) {
    case "unless-off":
      return mode !== "off"
        ? { on: true, why: `${input.channel} streams blocks unless streaming.mode is "off"` }
        : { on: false, why: 'streaming.mode is "off"' };
    case "inherit":
      if (setting !== undefined) return { on: setting, why: `streaming.block.enabled is ${setting}` };
      if (input.blockStreamingDefault === "on" && explicitMode !== undefined && explicitMode !== "off") {
        return { on: false, why: `the explicit streaming.mode "${explicitMode}" beats the inherited blockStreamingDefault "on"` };
      }
      return { on: input.blockStreamingDefault === "on", why: `agents.defaults.blockStreamingDefault is "${input.blockStreamingDefault}"` };
    case "explicit":
      return setting === true
        ? { on: true, why: "streaming.block.enabled is true" }
        : { on: false, why: "block replies need an explicit streaming.block.enabled: true" };
  }
}

/**
 * Implements the streaming table of the design (DESIGN.md, "Streaming: what the config means")
 * from the channel's declared policy, so core names no platform:
 * - block replies per `policy.blockReplies` (see `BlockReplyDefault`);
 * - a native stream when the policy has one, `streaming.mode` selects it (and its `flag` is set),
 *   and the account can stream in this chat; it beats block replies only when `overBlocks`;
 * - with block replies on, the preview is skipped; with the mode "off" only the final is sent;
 * - else a live preview in the configured mode (default: `policy.defaultMode`) when the account
 *   can edit in this chat, else the final reply only.
 */
export function planDelivery(input: PlanInput): DeliveryPlan {
  const { policy, capabilities, streaming, channel } = input;
  const explicitMode = streaming?.mode;
  const mode = explicitMode ?? policy.defaultMode ?? "off";
  const blocks = blockReplies(input, mode);
  const native = policy.nativeStream;
  const nativeFits =
    native !== undefined &&
    capabilities.nativeStream !== undefined &&
    mode === native.mode &&
    (native.flag === undefined || streaming?.[native.flag] === true);
  const nativeReason = native?.flag
    ? `streaming.${native.flag} streams this chat natively`
    : `${channel} streams natively in mode "${mode}"`;

  if (nativeFits && native.overBlocks) return { kind: "native", reason: nativeReason };
  if (blocks.on)
    return { kind: "blocks", reason: policy.blockReplies === "unless-off" ? blocks.why : `${blocks.why}; the preview is skipped` };
  if (mode === "off" || policy.defaultMode === null) {
    return { kind: "final", reason: policy.defaultMode === null ? `${channel} cannot preview` : 'streaming.mode is "off"' };
  }
  if (nativeFits) return { kind: "native", reason: nativeReason };
  if (!capabilities.edit) return { kind: "final", reason: `${channel} cannot edit messages, so there is no live preview` };
  const preview = policy.previewModes.find((m) => m === mode);
  if (preview) {
    return {
      kind: "preview",
      mode: preview,
      reason: explicitMode ? `streaming.mode is "${explicitMode}"` : `the ${channel} default preview mode is "${mode}"`,
    };
  }
  return { kind: "final", reason: `unknown streaming.mode "${mode}"` };
}
