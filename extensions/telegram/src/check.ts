/** The credentials check `openclaw onboard` runs before it saves the config: one `getMe`. */
import { Api, GrammyError } from "./grammy.js";
import { accountKeyPath, type TelegramAccount } from "./account.js";
import { grammySignal, normalizeApiRoot } from "./api.js";
import { tokenRejectedError } from "./inbound/polling.js";

/**
 * Asks the Bot API who the bot is (`getMe`) and resolves with `@username`. Rejects with
 * `AccountConfigError` when Telegram refuses the token (401/404), and with an ordinary error
 * naming the API root when it cannot be reached.
 */
export async function checkTelegramAccount(account: TelegramAccount, options: { signal: AbortSignal }): Promise<{ identity: string }> {
  const apiRoot = normalizeApiRoot(account.apiRoot);
  const api = new Api(account.token, { ...(apiRoot ? { apiRoot } : {}), timeoutSeconds: 20 });
  try {
    const me = await api.getMe(grammySignal(options.signal));
    return { identity: `@${me.username}` };
  } catch (error) {
    if (error instanceof GrammyError && (error.error_code === 401 || error.error_code === 404)) {
      throw tokenRejectedError(accountKeyPath(account.accountId, account.tokenSource === "tokenFile" ? "tokenFile" : "botToken"));
    }
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`Telegram getMe failed at ${apiRoot ?? "https://api.telegram.org"}: ${reason}`, { cause: error });
  }
}
