/**
 * Whether the bot accepts an invite, by `autoJoin`: `"off"` (default) never, `"always"` every
 * invite, `"allowlist"` when `autoJoinAllowlist` lists the room id, one of its aliases, the
 * inviter's user id, or `"*"`. Invites from strangers are never accepted otherwise.
 */

/** An invite as the session sees it. */
export interface Invite {
  roomId: string;
  /** The room's canonical alias and alt aliases, from the invite's stripped state. */
  aliases: readonly string[];
  /** Who invited the bot. */
  inviter?: string;
}

/** Whether to join, and why not when not. */
export function decideAutoJoin(
  invite: Invite,
  policy: { autoJoin: "off" | "allowlist" | "always"; autoJoinAllowlist: readonly string[] },
): { join: true } | { join: false; reason: string } {
  if (policy.autoJoin === "always") return { join: true };
  if (policy.autoJoin === "off") return { join: false, reason: 'autoJoin is "off"' };
  const listed = new Set(policy.autoJoinAllowlist.map((entry) => entry.trim().toLowerCase()));
  if (listed.has("*")) return { join: true };
  const names = [invite.roomId, ...invite.aliases, ...(invite.inviter ? [invite.inviter] : [])];
  if (names.some((name) => listed.has(name.toLowerCase()))) return { join: true };
  return { join: false, reason: `neither ${names.join(", ")} is in autoJoinAllowlist` };
}
