// Builds the ScheduledTurnDeps of a running gateway: its queue, its pipeline's outbound path and the inbox.
import type { ChatRef } from "@openclaw/plugin-sdk";
import type { MessageQueue } from "../queue/index.js";
import { inferChatKind, type IdRulesLookup } from "../routing/index.js";
import type { StateDb } from "../state/index.js";
import { createLastContactLookup } from "./last-contact.js";
import type { ScheduledTurnDeps } from "./scheduled-turn.js";

export interface GatewaySchedulerInput {
  config: { channels?: unknown };
  queue: MessageQueue;
  stateDb: StateDb;
  /** The inbound pipeline's send (chunking, send budget, delivery ledger); undefined: nothing can be delivered. */
  send: ((target: { channel: string; accountId: string; chat: ChatRef }, text: string, key: string) => Promise<string[]>) | undefined;
  rulesOf?: IdRulesLookup;
  log: { info(message: string): void; warn(message: string): void };
}

function accountConfigOf(config: { channels?: unknown }, channel: string, accountId: string): Record<string, unknown> | undefined {
  const root = (config.channels as Record<string, Record<string, unknown> | undefined> | undefined)?.[channel];
  const account = (root?.accounts as Record<string, Record<string, unknown> | undefined> | undefined)?.[accountId];
  return root ? { ...root, ...(account ?? {}) } : undefined;
}

/** Scheduled turns through the gateway's queue, delivered like any reply (the chat kind inferred from the id rules). */
export function gatewayScheduledTurnDeps(input: GatewaySchedulerInput): ScheduledTurnDeps {
  const rulesOf = input.rulesOf ?? (() => undefined);
  return {
    queue: input.queue,
    log: input.log,
    lastContact: createLastContactLookup(input.stateDb, input.config, rulesOf),
    deliver: async (target, text, key) => {
      if (!input.send) throw new Error("this gateway has no outbound delivery");
      const kind = inferChatKind(
        { channel: target.channel, rules: rulesOf(target.channel) },
        target.chatId,
        accountConfigOf(input.config, target.channel, target.accountId),
      );
      const chat: ChatRef = { kind, id: target.chatId, ...(target.threadId ? { threadId: target.threadId } : {}) };
      return input.send({ channel: target.channel, accountId: target.accountId, chat }, text, key);
    },
  };
}
