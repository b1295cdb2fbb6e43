import type { ChannelCapabilities, ChannelConfigDefinition, ChatKind } from "@openclaw/plugin-sdk";

/** How one reply reaches a chat. */
export type DeliveryPlan =
  | { kind: "blocks"; reason: string }
  | { kind: "preview"; mode: "partial" | "block" | "progress" | "quiet"; reason: string }
  | { kind: "native"; reason: string }
  | { kind: "final"; reason: string };

export interface PlanInput {
  definition: Pick<ChannelConfigDefinition, "id" | "streamingDefaults">;
  capabilities: Pick<ChannelCapabilities, "edit" | "nativeStream">;
  /** The account's merged `streaming` object (root overlaid by the account), as configured. */
  streaming: { mode?: string; block?: { enabled?: boolean }; nativeTransport?: boolean } | undefined;
  /** `agents.defaults.blockStreamingDefault`. */
  blockStreamingDefault: "on" | "off";
  chatKind: ChatKind;
}

/**
 * Implements the streaming table of the design (DESIGN.md, "Streaming: what the config means"):
 * - block replies win over a preview when they are on; they are on when `streaming.block.enabled`
 *   is true, or (Telegram-like channels, `blockReplies: "inherit"`) when it is unset and
 *   `agents.defaults.blockStreamingDefault` is "on" — unless an explicit non-off preview mode is
 *   set, which beats the inherited default; channels with `"explicit"` need `block.enabled: true`;
 *   QQ Bot-like channels (`"unless-off"`) stream blocks unless `streaming.mode` is "off";
 * - a native stream when the channel has one and its mode is "partial" (Feishu: the CardKit
 *   card), or QQ Bot-like channels with `nativeTransport` in direct chats;
 * - else a live preview in the configured mode (default from the plugin) when the channel can edit;
 * - else the final reply only.
 */
export function planDelivery(input: PlanInput): DeliveryPlan {
  const { definition, capabilities, streaming, chatKind } = input;
  const defaults = definition.streamingDefaults;
  const explicitMode = streaming?.mode;
  const mode = explicitMode ?? defaults.previewMode ?? "off";
  const blockSetting = streaming?.block?.enabled;

  let blocks: boolean;
  let why: string;
  switch (defaults.blockReplies) {
    case "unless-off":
      blocks = mode !== "off";
      why = blocks ? `${definition.id} streams blocks unless streaming.mode is "off"` : 'streaming.mode is "off"';
      break;
    case "inherit":
      if (blockSetting !== undefined) {
        blocks = blockSetting;
        why = `streaming.block.enabled is ${blockSetting}`;
      } else if (input.blockStreamingDefault === "on" && explicitMode !== undefined && explicitMode !== "off") {
        blocks = false;
        why = `the explicit streaming.mode "${explicitMode}" beats the inherited blockStreamingDefault "on"`;
      } else {
        blocks = input.blockStreamingDefault === "on";
        why = `agents.defaults.blockStreamingDefault is "${input.blockStreamingDefault}"`;
      }
      break;
    case "explicit":
      blocks = blockSetting === true;
      why = blocks ? "streaming.block.enabled is true" : "block replies need an explicit streaming.block.enabled: true";
      break;
  }

  if (defaults.blockReplies === "unless-off") {
    // QQ Bot: a native C2C stream when asked for, else block replies (or the final only when off).
    if (mode === "off") return { kind: "final", reason: why };
    if (streaming?.nativeTransport && capabilities.nativeStream && chatKind === "direct") {
      return { kind: "native", reason: "streaming.nativeTransport streams direct chats natively" };
    }
    return { kind: "blocks", reason: why };
  }
  if (blocks) return { kind: "blocks", reason: `${why}; the preview is skipped` };
  if (mode === "off" || defaults.previewMode === null)
    return { kind: "final", reason: defaults.previewMode === null ? `${definition.id} cannot preview` : 'streaming.mode is "off"' };
  if (capabilities.nativeStream && mode === "partial") {
    // A native stream (e.g. Feishu's CardKit card) beats an edit-based preview.
    return { kind: "native", reason: `${definition.id} streams natively in mode "partial"` };
  }
  if (!capabilities.edit) return { kind: "final", reason: `${definition.id} cannot edit messages, so there is no live preview` };
  if (mode === "partial" || mode === "block" || mode === "progress" || mode === "quiet") {
    return {
      kind: "preview",
      mode,
      reason: explicitMode ? `streaming.mode is "${explicitMode}"` : `the ${definition.id} default preview mode is "${mode}"`,
    };
  }
  return { kind: "final", reason: `unknown streaming.mode "${mode}"` };
}
