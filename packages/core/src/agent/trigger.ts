/** Why a turn runs: a user's message, the heartbeat, a cron job, or the silent memory flush before compaction. */
export type TurnTrigger = "user" | "heartbeat" | "cron" | "memory-flush";
