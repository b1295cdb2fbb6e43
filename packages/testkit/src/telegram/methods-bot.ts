import { badRequest, optionalString } from "./errors.js";
import type { MethodContext, MethodHandler } from "./method-context.js";

/** Key of a command list: its scope and language, as setMyCommands/getMyCommands name them. */
function commandsKey(params: Record<string, any>): string {
  return JSON.stringify([params.scope ?? { type: "default" }, optionalString(params, "language_code") ?? ""]);
}

/** setMyCommands: 1–100 commands, each 1–32 of a-z 0-9 _ with a 1–256 character description. */
function setMyCommands(ctx: MethodContext): true {
  const commands = ctx.params.commands;
  if (!Array.isArray(commands)) throw badRequest('parameter "commands" is required');
  if (commands.length > 100) throw badRequest("too many commands specified");
  for (const entry of commands as Array<Record<string, unknown>>) {
    const command = String(entry?.command ?? "");
    const description = String(entry?.description ?? "");
    if (!/^[a-z0-9_]{1,32}$/.test(command)) throw badRequest("BOT_COMMAND_INVALID");
    if (description.length < 1 || description.length > 256) throw badRequest("command description is empty or too long");
  }
  ctx.store.commands.set(commandsKey(ctx.params), structuredClone(commands));
  return true;
}

function getMyCommands(ctx: MethodContext): unknown[] {
  return structuredClone(ctx.store.commands.get(commandsKey(ctx.params)) ?? []);
}

function deleteMyCommands(ctx: MethodContext): true {
  ctx.store.commands.delete(commandsKey(ctx.params));
  return true;
}

/** answerCallbackQuery: accepted whenever a query id is given (text ≤ 200 characters). */
function answerCallbackQuery(ctx: MethodContext): true {
  if (!optionalString(ctx.params, "callback_query_id")) throw badRequest("QUERY_ID_INVALID");
  if ((optionalString(ctx.params, "text") ?? "").length > 200) throw badRequest("MESSAGE_TOO_LONG");
  return true;
}

/** getChat: a chat the fake knows (from a user's message or a send). */
function getChat(ctx: MethodContext): unknown {
  return structuredClone(ctx.store.resolveChat(ctx.params.chat_id, true));
}

export const botMethods: Record<string, MethodHandler> = {
  getMe: (ctx) => ({
    ...structuredClone(ctx.store.bot),
    can_join_groups: true,
    can_read_all_group_messages: false,
    supports_inline_queries: false,
    can_connect_to_business: false,
    has_main_web_app: false,
  }),
  setMyCommands,
  getMyCommands,
  deleteMyCommands,
  answerCallbackQuery,
  getChat,
  logOut: () => true,
  close: () => true,
};
