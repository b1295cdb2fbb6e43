/**
 * `connect(ctx)`: one QQ Bot account's session. Fetches the access token (a refused AppSecret is
 * an `AccountConfigError`), opens the gateway, hands every user message to `ctx.receive` in order
 * (once each, also across Resume replays), and sends through the outbound side.
 */
import type { AccountContext, AccountSession, InboundMessage } from "@openclaw/plugin-sdk";
import { accountKeyPath, type QQBotAccount } from "./account.js";
import { QQApi } from "./api.js";
import { chatCapabilities } from "./config.js";
import { DEFAULT_GATEWAY_TUNING, type GatewayTuning, QQGateway } from "./gateway.js";
import { normalizeEvent } from "./inbound.js";
import { MsgSeqCounter } from "./msg-seq.js";
import { createQQOutbound } from "./outbound.js";
import { TokenManager } from "./token.js";

/** Knobs of a running account (tests shorten the gateway's waits). */
export interface SessionTuning {
  gateway: GatewayTuning;
  /** How many recent message ids are remembered to drop a message seen twice (default 1000). */
  recentIds: number;
}

/** Production settings. */
export const DEFAULT_SESSION_TUNING: SessionTuning = { gateway: DEFAULT_GATEWAY_TUNING, recentIds: 1000 };

/** Remembers the last `size` ids. */
class RecentIds {
  readonly #ids = new Set<string>();
  constructor(readonly size: number) {}
  /** True when `id` was seen before; remembers it otherwise. */
  seen(id: string): boolean {
    if (this.#ids.has(id)) return true;
    this.#ids.add(id);
    if (this.#ids.size > this.size) this.#ids.delete(this.#ids.values().next().value!);
    return false;
  }
  forget(id: string): void {
    this.#ids.delete(id);
  }
}

/** Connects one account; resolves once the gateway session is ready. */
export async function connectQQBotAccount(
  ctx: AccountContext<QQBotAccount>,
  tuning: SessionTuning = DEFAULT_SESSION_TUNING,
): Promise<AccountSession> {
  const { account, log } = ctx;
  ctx.status({ state: "starting" });
  const tokens = new TokenManager({
    appId: account.appId,
    clientSecret: account.clientSecret,
    tokenUrl: account.tokenUrl,
    secretPath: accountKeyPath(account.accountId, account.secretSource === "clientSecretFile" ? "clientSecretFile" : "clientSecret"),
  });
  await tokens.get();
  const api = new QQApi(account.apiBase, tokens);
  const outbound = createQQOutbound({ account, api, seq: new MsgSeqCounter(ctx.cursor) });
  const recent = new RecentIds(tuning.recentIds);

  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });
  const receive = async (message: InboundMessage): Promise<void> => {
    if (recent.seen(message.messageId)) return;
    try {
      await ctx.receive(message);
    } catch (error) {
      recent.forget(message.messageId);
      throw error;
    }
    ctx.status({ lastInboundAt: Date.now() });
  };

  const gateway = new QQGateway({
    api,
    tokens,
    cursor: ctx.cursor,
    log,
    signal: ctx.signal,
    tuning: tuning.gateway,
    async onDispatch(type, data) {
      const message = normalizeEvent(type, data, ctx.accountId, Date.now());
      if (message === undefined) {
        log.debug(`QQ Bot: event ${type || "(no type)"} is not a message the bot answers; skipped`);
        return;
      }
      await receive(message);
    },
    onState(state) {
      if (state.connected) {
        ctx.status({
          state: "connected",
          detail: state.resumed ? "gateway session resumed" : "gateway session ready",
          ...(state.identity ? { identity: state.identity } : {}),
        });
        markReady();
      } else ctx.status({ state: "reconnecting", detail: state.detail });
    },
  });
  const running = gateway.run();
  const closed = running.then(
    () => ctx.status({ state: "stopped" }),
    (error: unknown) => {
      ctx.status({ state: "error", detail: (error as Error).message });
      throw error;
    },
  );
  // Resolve once the gateway is ready, or fail as the gateway failed.
  await Promise.race([ready, closed]);
  return {
    ...outbound,
    closed,
    capabilitiesFor: (chat) => chatCapabilities(chat.kind, chat.id),
  };
}
