/**
 * `connect(ctx)`: one Feishu account's session. Checks the credentials by reading the bot's own
 * info (its open_id, to tell when the bot is mentioned), then receives events over the long
 * connection or on the gateway's webhook route, hands each message to `ctx.receive` once (event and
 * message ids remembered across restarts), and acknowledges only after that resolved.
 */
import { AccountConfigError, type AccountContext, type AccountSession, SendError } from "@openclaw/plugin-sdk";
import { accountKeyPath, type FeishuAccount } from "./account.js";
import { FeishuApi } from "./api.js";
import type { CardPacing } from "./card-stream.js";
import { SeenIds } from "./dedupe.js";
import { MESSAGE_EVENT, type MessageEvent, normalizeMessageEvent } from "./inbound.js";
import { DEFAULT_RECREATE_BACKOFF, type RecreateBackoff, runLongConnection } from "./long-connection.js";
import { OpenApiClient } from "./open-api.js";
import { createFeishuOutbound } from "./outbound.js";
import { createWebhookHandler, WEBHOOK_BODY_BYTES } from "./webhook.js";

/** Knobs of a running account (tests shorten them). */
export interface SessionTuning {
  backoff: RecreateBackoff;
  pacing?: CardPacing;
  /** Bytes of text per streaming card (tests shrink it). */
  cardBytes?: number;
}

export const DEFAULT_SESSION_TUNING: SessionTuning = { backoff: DEFAULT_RECREATE_BACKOFF };

/** Connects one account; resolves once the credentials were accepted and events can arrive. */
export async function connectFeishuAccount(
  ctx: AccountContext<FeishuAccount>,
  tuning: SessionTuning = DEFAULT_SESSION_TUNING,
): Promise<AccountSession> {
  const { account, log } = ctx;
  ctx.status({ state: "starting" });
  const api = new FeishuApi(new OpenApiClient({ appId: account.appId, appSecret: account.appSecret, baseUrl: account.domain }));
  let bot: { open_id?: string; app_name?: string } | undefined;
  try {
    bot = (await api.call<{ bot?: { open_id?: string; app_name?: string } }>("reading the bot's info", "GET", "/open-apis/bot/v3/info"))
      .bot;
  } catch (error) {
    if (error instanceof SendError && !error.retryable) {
      const path = accountKeyPath(account.accountId, "appSecret");
      throw new AccountConfigError(
        `Feishu refused App ID ${account.appId} with its App Secret (${error.message}): check ${accountKeyPath(account.accountId, "appId")} and ${path} against the app's Credentials & Basic Info page, and that the app has the Bot feature enabled.`,
        path,
      );
    }
    throw error;
  }
  const botOpenId = bot?.open_id;
  if (!botOpenId) log.warn("Feishu: the bot info has no open_id; group messages cannot tell when the bot is mentioned");
  const identity = bot?.app_name ?? account.appId;

  const outbound = createFeishuOutbound({
    account,
    api,
    ...(tuning.pacing ? { pacing: tuning.pacing } : {}),
    ...(tuning.cardBytes ? { cardBytes: tuning.cardBytes } : {}),
  });
  const seen = new SeenIds(ctx.cursor);

  /** One message event (flattened: `event_id` beside `message` and `sender`). */
  const onMessage = async (event: MessageEvent): Promise<void> => {
    const message = normalizeMessageEvent(event, account.accountId, botOpenId, Date.now());
    if (message === undefined) {
      log.debug("Feishu: an event that is not a user message the bot answers; skipped");
      return;
    }
    const ids = [message.messageId, ...(typeof event.event_id === "string" ? [event.event_id] : [])];
    const taken = await seen.once(ids, () => ctx.receive(message));
    if (taken) ctx.status({ lastInboundAt: Date.now() });
    else log.debug(`Feishu: message ${message.messageId} came again; already taken`);
  };

  let running: Promise<void>;
  if (account.connectionMode === "webhook") {
    const webhook = account.webhook!;
    if (ctx.http === undefined) {
      throw new AccountConfigError(
        `connectionMode "webhook" needs the gateway's HTTP listener, which this host does not offer; use connectionMode "websocket".`,
        accountKeyPath(account.accountId, "connectionMode"),
      );
    }
    const release = ctx.http.route(
      webhook.path,
      createWebhookHandler({
        keys: webhook,
        log,
        onEvent: async (body) => {
          const header = (body.header ?? {}) as Record<string, unknown>;
          if (header.event_type !== MESSAGE_EVENT) return;
          await onMessage({ ...(body.event as object), event_id: header.event_id as string } as MessageEvent);
        },
      }),
      { maxBodyBytes: WEBHOOK_BODY_BYTES },
    );
    ctx.status({ state: "connected", identity, detail: `webhook at ${webhook.path} on the gateway's port` });
    running = new Promise<void>((resolve) => {
      const stop = () => {
        release();
        resolve();
      };
      if (ctx.signal.aborted) stop();
      else ctx.signal.addEventListener("abort", stop, { once: true });
    });
  } else {
    running = runLongConnection({
      appId: account.appId,
      appSecret: account.appSecret,
      domain: account.domain,
      log,
      signal: ctx.signal,
      backoff: tuning.backoff,
      onMessage: (event) => onMessage(event as MessageEvent),
      onState: (state) => ctx.status({ state: state.connected ? "connected" : "reconnecting", detail: state.detail, identity }),
    });
  }
  const closed = running.then(() => ctx.status({ state: "stopped" }));
  return { ...outbound, closed };
}
