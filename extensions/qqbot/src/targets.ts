/**
 * Where a chat's messages go: a C2C chat is the user's openid, a group its group_openid, a guild
 * channel `channel:<channel_id>`, a guild DM `dms:<guild_id>`.
 */
import { PermanentSendError, type ChatRef } from "@openclaw/plugin-sdk";

/** The kind of QQ conversation a chat is, and the REST paths that reach it. */
export interface QQTarget {
  scene: "c2c" | "group" | "channel" | "dms";
  /** The id in the path (openid, group_openid, channel_id or guild_id). */
  id: string;
  /** `POST` here to send a message. */
  messagesPath: string;
  /** `POST` here to upload a file (C2C and groups only). */
  filesPath?: string;
}

/** The chat id of a guild channel. */
export const channelChatId = (channelId: string): string => `channel:${channelId}`;
/** The chat id of a guild DM (keyed by its DM guild). */
export const dmsChatId = (guildId: string): string => `dms:${guildId}`;

/** The QQ target of a chat. @throws PermanentSendError for a chat id no QQ conversation can have. */
export function targetOf(chat: ChatRef): QQTarget {
  const id = chat.id;
  if (id.startsWith("channel:")) {
    const channelId = encodeURIComponent(id.slice("channel:".length));
    return { scene: "channel", id: channelId, messagesPath: `/channels/${channelId}/messages` };
  }
  if (id.startsWith("dms:")) {
    const guildId = encodeURIComponent(id.slice("dms:".length));
    return { scene: "dms", id: guildId, messagesPath: `/dms/${guildId}/messages` };
  }
  if (id === "") throw new PermanentSendError("QQ Bot: empty chat id", "bad_target");
  const openid = encodeURIComponent(id);
  if (chat.kind === "group")
    return { scene: "group", id: openid, messagesPath: `/v2/groups/${openid}/messages`, filesPath: `/v2/groups/${openid}/files` };
  if (chat.kind === "direct")
    return { scene: "c2c", id: openid, messagesPath: `/v2/users/${openid}/messages`, filesPath: `/v2/users/${openid}/files` };
  throw new PermanentSendError(
    `QQ Bot: a ${chat.kind} chat is a guild channel and its id starts with "channel:" (got ${JSON.stringify(id)})`,
    "bad_target",
  );
}
