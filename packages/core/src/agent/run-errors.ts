import type { FailureCategory } from "../providers/index.js";

/** One failed run, as `openclaw status` lists it (the message is the full detail, for the owner only). */
export interface RunErrorRecord {
  /** When it failed, in milliseconds since 1970. */
  at: number;
  runId: string;
  agentId: string;
  sessionKey: string;
  /** The coarse reason the chat was told. */
  category: FailureCategory;
  /** The finer kind: a provider error kind (`rate_limit`, `bad_request`, …), `config`, `workspace`, `timeout`, `no_model`. */
  kind: string;
  /** What went wrong, with the provider's answer and the fix; never sent to a chat. */
  message: string;
}

/** How many failed runs the runtime keeps for `status`. */
export const RECENT_RUN_ERRORS = 20;

/** The last {@link RECENT_RUN_ERRORS} failed runs, newest first. */
export class RecentRunErrors {
  private readonly records: RunErrorRecord[] = [];

  add(record: RunErrorRecord): void {
    this.records.unshift(record);
    if (this.records.length > RECENT_RUN_ERRORS) this.records.length = RECENT_RUN_ERRORS;
  }

  list(): RunErrorRecord[] {
    return this.records.map((r) => ({ ...r }));
  }
}

const CATEGORY_WORDS: Record<FailureCategory, string> = {
  auth: "authentication failed",
  rate_limit: "rate limited",
  overloaded: "overloaded",
  timeout: "timed out",
  network: "network error",
  other: "error",
};

/**
 * What a chat is told when a run fails: a short notice naming only the coarse category, never
 * the provider's answer, URLs or config keys (a group sees it). The detail goes to the gateway
 * log and `openclaw status`. `provider` is false for failures before or outside the model call.
 */
export function chatFailureNotice(category: FailureCategory, provider: boolean): string {
  const what = provider ? `the model provider failed (${CATEGORY_WORDS[category]})` : "the run failed";
  return `Sorry — ${what}. The details are in the gateway log; run \`openclaw status\`.`;
}
