// The silent turn before a compaction in which the agent writes what it must not forget.
import { localDateStamp, MEMORY_DIR, MEMORY_ROOT_FILE } from "../../memory/index.js";
import type { SessionEntry } from "../../sessions/index.js";
import { SILENT_REPLY_TOKEN } from "../system-prompt.js";

/** The message of the memory-flush turn (trigger "memory-flush"); `now` picks today's note (local date). */
export function memoryFlushPrompt(now: Date): string {
  const daily = `${MEMORY_DIR}/${localDateStamp(now)}.md`;
  return [
    "[Memory flush: an automatic turn before this session is compacted; nobody sees your reply.]",
    "Older messages of this conversation will soon be replaced by a short summary.",
    `Write the durable facts from this conversation that must not be lost (what the user told you about themselves, names, numbers, dates, preferences, decisions, open commitments) to ${daily}, and the lasting ones also to ${MEMORY_ROOT_FILE}, with your file tools.`,
    "When a file exists, add to it and keep what it says (read it first: write replaces a whole file, edit changes a part); do not repeat facts it already holds.",
    `If nothing is worth keeping, write nothing. Then reply with ${SILENT_REPLY_TOKEN} only.`,
  ].join("\n");
}

/** The entry field that records which compaction cycle the last flush belonged to (our addition to SessionEntry). */
export const FLUSH_CYCLE_FIELD = "memoryFlushCompactionCount";

/** True when this session already had its flush since its last compaction. */
export function flushedThisCycle(entry: SessionEntry | undefined): boolean {
  return entry?.[FLUSH_CYCLE_FIELD] === (entry?.compactionCount ?? 0);
}
