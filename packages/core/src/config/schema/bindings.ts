import { z } from "zod";
import { agentIdSchema } from "./common.js";
import { sessionScopeSchema } from "./session.js";

/** One routing rule under `bindings[]`. */
export const bindingSchema = z
  .strictObject({
    type: z.literal("route").default("route").describe('The binding type (only "route").'),
    agentId: agentIdSchema.describe("The agent that handles matching messages."),
    match: z
      .strictObject({
        channel: z.string().min(1).describe("Channel id (required)."),
        accountId: z.string().min(1).optional().describe('Account id; "*" matches any account.'),
        peer: z
          .strictObject({
            kind: z.enum(["direct", "group", "channel"]).describe("What the peer is."),
            id: z.string().min(1).describe('Peer id; "*" matches any.'),
          })
          .optional()
          .describe("A specific chat."),
      })
      .describe("Every field must match."),
    session: sessionScopeSchema.optional().describe("Session scope overrides for matching messages."),
  })
  .describe(
    "Routes messages to an agent. Order: exact peer, parent peer, peer wildcard, account, channel, default agent; first entry wins within a tier.",
  );

export const bindingsSchema = z.array(bindingSchema).default([]).describe("Routing rules from messages to agents.");
