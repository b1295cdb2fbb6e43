// The agent's last contact (heartbeat target "last"): the newest inbound message an agent run answered.
import type { InboundMessage } from "@openclaw/plugin-sdk";
import type { IdRulesLookup } from "../routing/index.js";
import { resolveRoute } from "../routing/index.js";
import type { StateDb } from "../state/index.js";
import type { ScheduledTurnTarget } from "./target.js";

/** How many recent answered messages are looked at to find one routed to the agent. */
const LOOKBACK = 200;

/**
 * Finds the chat of the newest inbound message that reached an agent run (the inbox's
 * `started_at` is set, so refused senders and pairing requests never count) and routes to
 * `agentId` under the current bindings. Inbox rows are kept 7 days after they are settled, so
 * a contact older than that is forgotten. Undefined when there is none.
 */
export function createLastContactLookup(
  db: StateDb,
  config: unknown,
  rulesOf: IdRulesLookup = () => undefined,
): (agentId: string) => ScheduledTurnTarget | undefined {
  const recent = db.prepare<[number], { message_json: string }>(
    "SELECT message_json FROM inbox WHERE started_at IS NOT NULL ORDER BY started_at DESC, id DESC LIMIT ?",
  );
  return (agentId) => {
    for (const row of recent.all(LOOKBACK)) {
      let message: InboundMessage;
      try {
        message = JSON.parse(row.message_json) as InboundMessage;
      } catch {
        continue;
      }
      if (resolveRoute(message, config, rulesOf).agentId !== agentId) continue;
      return {
        channel: message.channel,
        accountId: message.accountId,
        chatId: message.chat.id,
        ...(message.chat.threadId ? { threadId: message.chat.threadId } : {}),
      };
    }
    return undefined;
  };
}
