import { isPlainObject } from "@openclaw/plugin-sdk/config";
import { channelScopes } from "./channel-scopes.js";

/**
 * Settings that put different people in one session. The main DM session belongs to the owner
 * (the senders an account lists by id in `allowFrom`; everyone else gets a session of their own),
 * so what still mixes people is an `allowFrom` with several ids while `session.dmScope` is
 * `"main"`: each of them lands in the one main session and sees the others' turns and MEMORY.md.
 * Printed by `openclaw config validate`, `openclaw doctor` and at gateway start.
 */
export function sharedSessionWarnings(config: unknown): string[] {
  if (!isPlainObject(config)) return [];
  const session = isPlainObject(config.session) ? config.session : {};
  const scope = typeof session.dmScope === "string" ? session.dmScope : "main";
  if (scope !== "main") return [];
  const out: string[] = [];
  for (const { path, entry } of channelScopes(config)) {
    const list = Array.isArray(entry.allowFrom) ? entry.allowFrom.filter((v) => v !== "*" && v !== "") : [];
    if (list.length < 2) continue;
    out.push(
      `${path}.allowFrom lists ${list.length} senders and session.dmScope is "main": they all share the owner's main session (its history and MEMORY.md). ` +
        `If they are different people, set session.dmScope to "per-channel-peer"; if they are one person on several ids, keep "main" (or link the ids with session.identityLinks).`,
    );
  }
  return out;
}
