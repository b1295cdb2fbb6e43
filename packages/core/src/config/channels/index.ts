import type { ChannelConfigDefinition } from "@openclaw/plugin-sdk";
import { feishuChannel } from "./feishu.js";
import { matrixChannel } from "./matrix.js";
import { qqbotChannel } from "./qqbot.js";
import { telegramChannel } from "./telegram.js";
import { whatsappChannel } from "./whatsapp.js";

/**
 * Channel config definitions that core knows without a plugin installed. An installed channel
 * plugin supplies its own definition, which replaces the built-in one with the same id.
 */
export const BUILTIN_CHANNELS: readonly ChannelConfigDefinition[] = [
  telegramChannel,
  matrixChannel,
  feishuChannel,
  qqbotChannel,
  whatsappChannel,
];
