import { z } from "zod";

const queueModeSchema = z
  .enum(["steer", "followup", "collect", "interrupt", "steer-backlog", "queue"])
  .describe(
    '"steer" (default): a message sent mid-run joins the run before its next model call; "followup": one new turn per message afterwards; "collect": one turn for all messages after a quiet window; "interrupt": abort the run and answer the newest message. Older spellings: "queue" means "steer"; "steer-backlog" steers and also keeps the message for a follow-up turn.',
  );

/** `messages`: inbound message handling. */
export const messagesSchema = z
  .strictObject({
    queue: z
      .strictObject({
        mode: queueModeSchema.default("steer"),
        byChannel: z.record(z.string().min(1), queueModeSchema).optional().describe("Queue mode per channel."),
        debounceMs: z.int().min(0).default(500).describe("Quiet time before queued messages are released (default 500)."),
        debounceMsByChannel: z.record(z.string().min(1), z.int().min(0)).optional().describe("Debounce per channel."),
        cap: z.int().positive().default(20).describe("Most messages waiting per session (default 20)."),
        drop: z
          .enum(["summarize", "old", "new"])
          .default("summarize")
          .describe(
            'At the cap: "summarize" (default) drops the oldest and adds a short summary of them; "old" drops the oldest; "new" rejects the newest.',
          ),
      })
      .prefault({})
      .describe("What happens to messages that arrive while a run is active."),
  })
  .prefault({})
  .describe("Inbound message handling.");
