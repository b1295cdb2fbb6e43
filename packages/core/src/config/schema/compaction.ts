import { z } from "zod";

/** `agents.defaults.compaction`: how long sessions are summarized before they outgrow the model's context window. */
export const compactionSchema = z
  .strictObject({
    enabled: z
      .boolean()
      .default(true)
      .describe("Summarize the oldest turns when a session nears the model's context window (default true)."),
    reserveTokens: z
      .int()
      .positive()
      .default(16000)
      .describe(
        "Tokens kept free for the reply: history is compacted once the prompt would pass contextWindow - reserveTokens (default 16000, at most a quarter of the window).",
      ),
    keepRecentTokens: z
      .int()
      .positive()
      .default(20000)
      .describe("Recent history kept word for word after a compaction (default 20000, at most 30% of the window)."),
    memoryFlush: z
      .strictObject({
        enabled: z
          .boolean()
          .default(true)
          .describe(
            "Before compacting, give the agent one silent turn to write durable facts to memory/YYYY-MM-DD.md and MEMORY.md (default true).",
          ),
        softThresholdTokens: z
          .int()
          .positive()
          .default(4000)
          .describe(
            "The flush runs this many tokens before the compaction threshold, once per compaction (default 4000, at most 10% of the window).",
          ),
      })
      .prefault({})
      .describe("The silent memory-flush turn before a compaction."),
  })
  .prefault({})
  .describe("Compaction of long sessions: older turns become a summary the model sees instead of them.");
