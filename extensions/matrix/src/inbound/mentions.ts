/**
 * Whether a Matrix message mentions the bot, and the text without a leading address. A message
 * mentions the bot when its `m.mentions.user_ids` lists the bot, its `formatted_body` links the bot
 * with a matrix.to pill, its text names the bot (full user id, localpart as `@localpart`, or
 * display name), or one of `mentionPatterns` matches.
 */

/** Who the bot is, for mention detection. */
export interface MentionTarget {
  /** The bot's full user id, e.g. `@bot:example.org`. */
  userId: string;
  /** The bot's display name, when it has one. */
  displayName?: string;
  /** Extra patterns (`mentionPatterns`), case-insensitive. */
  patterns: readonly RegExp[];
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The localpart of a user id (`bot` for `@bot:example.org`). */
export function localpartOf(userId: string): string {
  return userId.replace(/^@/, "").split(":")[0] ?? userId;
}

/** True when `href` is a matrix.to (or matrix: URI) link to `userId`. */
function linksTo(href: string, userId: string): boolean {
  let decoded = href;
  try {
    decoded = decodeURIComponent(href);
  } catch {
    // keep the raw href
  }
  const lower = decoded.toLowerCase();
  const id = userId.toLowerCase();
  return lower.includes(`matrix.to/#/${id}`) || lower === `matrix:u/${id.slice(1)}` || lower.startsWith(`matrix:u/${id.slice(1)}?`);
}

function namePatterns(target: MentionTarget): RegExp[] {
  const names = [target.userId, `@${localpartOf(target.userId)}`];
  if (target.displayName && target.displayName.trim().length > 1) names.push(target.displayName.trim());
  return names.map((name) => new RegExp(`(^|[^\\w@])${escapeRegExp(name)}(?![\\w-])`, "i"));
}

/** Whether a message's content mentions the bot. */
export function mentionsBot(content: Record<string, unknown>, target: MentionTarget): boolean {
  const mentions = content["m.mentions"] as { user_ids?: unknown } | undefined;
  if (
    Array.isArray(mentions?.user_ids) &&
    mentions.user_ids.some((id) => typeof id === "string" && id.toLowerCase() === target.userId.toLowerCase())
  ) {
    return true;
  }
  const html = typeof content.formatted_body === "string" ? content.formatted_body : "";
  for (const match of html.matchAll(/<a\s[^>]*href\s*=\s*["']([^"']+)["']/gi)) {
    if (linksTo(match[1] ?? "", target.userId)) return true;
  }
  const body = typeof content.body === "string" ? content.body : "";
  if (namePatterns(target).some((re) => re.test(body))) return true;
  return target.patterns.some((re) => re.test(body));
}

/**
 * The text without a leading address to the bot (`@bot:example.org: hi`, `Bot, hi`, `@bot hi`
 * become `hi`). Text that does not start with one comes back unchanged.
 */
export function stripLeadingMention(text: string, target: MentionTarget): string {
  const names = [target.userId, `@${localpartOf(target.userId)}`, ...(target.displayName ? [target.displayName] : [])];
  for (const name of names) {
    const re = new RegExp(`^\\s*${escapeRegExp(name)}(?![\\w-])[:,]?\\s*`, "i");
    if (re.test(text)) {
      const rest = text.replace(re, "");
      if (rest.trim() !== "") return rest;
    }
  }
  return text;
}
