// Reading a chat message as a slash command: `/name args`, `/name@bot args`, or, in a group,
// `@bot /name args`.

/** A message read as a slash command. */
export interface ParsedCommand {
  /** Lowercase, without the slash and without an `@bot` suffix. */
  name: string;
  /** What follows the name, trimmed ("" when nothing). */
  args: string;
}

export interface ParseContext {
  /** The kind of chat the message came from. */
  chatKind: "direct" | "group" | "channel";
  /** The platform said the message mentions, replies to or addresses the bot. */
  mentionsBot: boolean;
}

const COMMAND = /^\/([a-z0-9][\w-]*)(?:@([\w.-]+))?(?=$|\s)/i;
const LEADING_MENTION = /^(?:@[\w.-]+|<@!?[\w.-]+>)[\s,:]+(?=\/)/;

/**
 * Reads `text` as a slash command; undefined when it is not one. A command with an `@name`
 * suffix (`/status@my_bot`) counts only when the platform says the bot was addressed
 * (`mentionsBot`), so `/status@other_bot` in a group is left alone. In a group or channel, a
 * leading mention of the bot (`@my_bot /status`) is skipped. Names are case-insensitive.
 */
export function parseCommand(text: string, context: ParseContext): ParsedCommand | undefined {
  let trimmed = text.trim();
  if (context.chatKind !== "direct" && context.mentionsBot) trimmed = trimmed.replace(LEADING_MENTION, "");
  const match = COMMAND.exec(trimmed);
  if (!match) return undefined;
  if (match[2] !== undefined && !context.mentionsBot) return undefined;
  return { name: match[1]!.toLowerCase(), args: trimmed.slice(match[0].length).trim() };
}

/** A skill name as a command word: lowercase, `_` and `-` alike (some platforms allow no `-` in commands). */
export function commandWord(name: string): string {
  return name.toLowerCase().replace(/-/g, "_");
}
