// The control API's pairing methods: the same store (and the same checks) as `openclaw pairing`.
import { z } from "zod";
import { createPairingStore } from "../access/index.js";
import type { StateDb } from "../state/index.js";
import type { MethodHandler } from "./control-server.js";
import { clientError, parseParams } from "./method-params.js";
import { ControlError } from "./protocol.js";

const codeParams = z.object({
  channel: z.string().trim().min(1),
  code: z.string().trim().min(1),
  accountId: z.string().trim().min(1).optional(),
});
const removeParams = z.object({
  channel: z.string().trim().min(1),
  senderId: z.string().trim().min(1),
  accountId: z.string().trim().min(1).optional(),
});

/** Runs a store call, answering a refusal (unknown or expired code, ...) as `not_found` with the store's message. */
function attempt<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    throw clientError(err, "not_found");
  }
}

/** `pairing.list`, `pairing.approve`, `pairing.reject`, `allowlist.remove`; an approval applies at the sender's next message. */
export function pairingMethods(stateDb: StateDb): Record<string, MethodHandler> {
  const store = createPairingStore(stateDb);
  return {
    "pairing.list": () => {
      const { pending, approved } = store.list();
      const allow: Record<string, { accountId: string; senderId: string; senderName: string | null; approvedAt: number }[]> = {};
      for (const a of approved) {
        (allow[a.channel] ??= []).push({
          accountId: a.accountId,
          senderId: a.senderId,
          senderName: a.senderName ?? null,
          approvedAt: a.approvedAt,
        });
      }
      return {
        pending: pending.map((p) => ({
          channel: p.channel,
          accountId: p.accountId,
          code: p.code,
          senderId: p.senderId,
          senderName: p.senderName ?? null,
          createdAt: p.createdAt,
          expiresAt: p.expiresAt,
        })),
        allow,
      };
    },

    "pairing.approve": (params) => {
      const p = parseParams(codeParams, params, "pairing.approve");
      const sender = attempt(() => store.approve(p.channel, p.code, p.accountId ? { accountId: p.accountId } : {}));
      return {
        ok: true,
        channel: sender.channel,
        accountId: sender.accountId,
        senderId: sender.senderId,
        senderName: sender.senderName ?? null,
      };
    },

    "pairing.reject": (params) => {
      const p = parseParams(codeParams, params, "pairing.reject");
      const refused = attempt(() => store.reject(p.channel, p.code));
      return { ok: true, channel: refused.channel, accountId: refused.accountId, senderId: refused.senderId };
    },

    "allowlist.remove": (params) => {
      const p = parseParams(removeParams, params, "allowlist.remove");
      const removed = store.revoke(p.channel, p.senderId, p.accountId ? { accountId: p.accountId } : {});
      if (removed.length === 0) {
        throw new ControlError(
          "not_found",
          `no approved sender "${p.senderId}" on ${p.channel.toLowerCase()}; pairing.list shows the approved ones`,
        );
      }
      return { ok: true, removed: removed.map((r) => ({ channel: r.channel, accountId: r.accountId, senderId: r.senderId })) };
    },
  };
}
