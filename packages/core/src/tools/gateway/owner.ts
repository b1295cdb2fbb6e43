import type { OpenClawConfig } from "../../config/index.js";
import { mainSessionKey } from "../../sessions/index.js";

/**
 * True when `sessionKey` is the owner's main session of `agentId` (`agent:<id>:<session.mainKey>`):
 * the session the CLI and the owner's DMs (senders listed in `allowFrom`) reach. Never true while
 * `session.groupScope` or a binding sends group chats to the main session, since group members
 * would then share it.
 */
export function isOwnerMainSession(config: OpenClawConfig, agentId: string, sessionKey: string): boolean {
  if (sessionKey.trim().toLowerCase() !== mainSessionKey(agentId, config.session.mainKey)) return false;
  if (config.session.groupScope === "main") return false;
  return !config.bindings.some((b) => b.session?.groupScope === "main");
}
