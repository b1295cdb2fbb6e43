// Sender lists that can never match: every `allowFrom` / `groupAllowFrom` entry under
// `channels.<id>` (root, accounts, groups, topics) checked by the id rules its channel declares
// (`ChannelIdRules.checkSender`). Core knows no platform's spelling; it only finds the lists,
// removes the channel prefix and reports what the channel says.
import { type ChannelIdRules, formatPath, isPlainObject } from "@openclaw/plugin-sdk/config";
import { stripIdPrefix } from "../access/ids.js";
import type { ConfigProblem } from "./validate.js";

/** The config keys that hold sender ids, wherever they appear in a channel's config. */
const SENDER_LIST_KEYS: ReadonlySet<string> = new Set(["allowFrom", "groupAllowFrom"]);

type Path = (string | number)[];

/** A problem for one entry, or undefined when it can match someone (or the schema reports it). */
function checkEntry(channel: string, rules: ChannelIdRules, entry: unknown): { message: string; fix: string } | undefined {
  let text: string;
  if (typeof entry === "string") text = entry.trim();
  else if (typeof entry === "number" && Number.isSafeInteger(entry)) text = String(entry);
  else return undefined; // other types and fractions are schema errors
  if (text === "*") return undefined;
  const id = stripIdPrefix({ channel, rules }, text);
  if (id === "") {
    return {
      message: `${JSON.stringify(entry)} names no sender (only blanks or a prefix).`,
      fix: `write the sender's id after the prefix, or remove the entry.`,
    };
  }
  return rules.checkSender?.(id);
}

function walk(channel: string, rules: ChannelIdRules, node: Record<string, unknown>, path: Path, out: ConfigProblem[]): void {
  for (const [key, value] of Object.entries(node)) {
    if (SENDER_LIST_KEYS.has(key) && Array.isArray(value)) {
      value.forEach((entry, i) => {
        const problem = checkEntry(channel, rules, entry);
        if (problem) out.push({ kind: "invalid", path: formatPath([...path, key, i]), message: problem.message, fix: problem.fix });
      });
    } else if (isPlainObject(value)) {
      walk(channel, rules, value, [...path, key], out);
    }
  }
}

/**
 * Every sender-list entry of `config.channels` that can never match a sender: one that is only
 * a prefix or blanks, or one the channel's `ids.checkSender` refuses. Channels without that rule
 * (or whose plugin is not installed) are checked for the former only. `"*"`, non-string entries
 * and fractional numbers are left to the schema.
 */
export function senderIdProblems(config: unknown, rulesOf: (channel: string) => ChannelIdRules | undefined): ConfigProblem[] {
  const channels = isPlainObject(config) && isPlainObject(config.channels) ? config.channels : {};
  const out: ConfigProblem[] = [];
  for (const [channel, entry] of Object.entries(channels)) {
    if (isPlainObject(entry)) walk(channel, rulesOf(channel) ?? {}, entry, ["channels", channel], out);
  }
  return out;
}
