import type { TargetKey } from "./store.js";
import type { FakeQQAttachment } from "./types.js";

/** One inbound event: its dispatch type, payload, and the conversation replies go to. */
export interface InboundEvent {
  t: string;
  d: Record<string, unknown>;
  target: TargetKey;
}

function timestamp(): string {
  return new Date().toISOString().replace(/\.\d{3}Z$/, "+00:00");
}

function withAttachments(d: Record<string, unknown>, attachments: FakeQQAttachment[] | undefined): Record<string, unknown> {
  return attachments?.length ? { ...d, attachments: structuredClone(attachments) } : d;
}

/** C2C_MESSAGE_CREATE: `author.user_openid` is the sender (and the reply target). */
export function c2cEvent(id: string, msg: { openid: string; content: string; attachments?: FakeQQAttachment[] }): InboundEvent {
  const d = {
    id,
    content: msg.content,
    timestamp: timestamp(),
    author: { id: msg.openid, user_openid: msg.openid, union_openid: msg.openid },
  };
  return { t: "C2C_MESSAGE_CREATE", d: withAttachments(d, msg.attachments), target: `c2c:${msg.openid}` };
}

/**
 * GROUP_AT_MESSAGE_CREATE / GROUP_MESSAGE_CREATE. For an @-message the platform removes the
 * mention of the bot from `content`, leaving the space that followed it (content " hello"), and
 * lists the bot in `mentions` with `is_you: true`.
 */
export function groupEvent(
  id: string,
  msg: { groupOpenid: string; memberOpenid: string; content: string; attachments?: FakeQQAttachment[] },
  mentioned: boolean,
  bot: { id: string; username: string },
): InboundEvent {
  const d: Record<string, unknown> = {
    id,
    content: mentioned ? ` ${msg.content}` : msg.content,
    timestamp: timestamp(),
    group_id: msg.groupOpenid,
    group_openid: msg.groupOpenid,
    author: { id: msg.memberOpenid, member_openid: msg.memberOpenid, bot: false },
    message_scene: { source: "default" },
  };
  if (mentioned) d.mentions = [{ id: bot.id, username: bot.username, bot: true, is_you: true }];
  return {
    t: mentioned ? "GROUP_AT_MESSAGE_CREATE" : "GROUP_MESSAGE_CREATE",
    d: withAttachments(d, msg.attachments),
    target: `group:${msg.groupOpenid}`,
  };
}

/** AT_MESSAGE_CREATE: guild channel content keeps the mention as `<@!botid>`. */
export function guildAtEvent(
  id: string,
  msg: { channelId: string; guildId: string; authorId: string; content: string },
  bot: { id: string; username: string },
): InboundEvent {
  return {
    t: "AT_MESSAGE_CREATE",
    d: {
      id,
      content: `<@!${bot.id}> ${msg.content}`,
      timestamp: timestamp(),
      channel_id: msg.channelId,
      guild_id: msg.guildId,
      author: { id: msg.authorId, username: `user-${msg.authorId}`, bot: false },
      mentions: [{ id: bot.id, username: bot.username, bot: true }],
    },
    target: `channel:${msg.channelId}`,
  };
}

/** DIRECT_MESSAGE_CREATE: replies go to `/dms/{guild_id}/messages` (the DM's own guild). */
export function directEvent(id: string, msg: { guildId: string; authorId: string; content: string }): InboundEvent {
  return {
    t: "DIRECT_MESSAGE_CREATE",
    d: {
      id,
      content: msg.content,
      timestamp: timestamp(),
      guild_id: msg.guildId,
      channel_id: `dm-${msg.guildId}`,
      src_guild_id: msg.guildId,
      author: { id: msg.authorId, username: `user-${msg.authorId}`, bot: false },
    },
    target: `dm:${msg.guildId}`,
  };
}
