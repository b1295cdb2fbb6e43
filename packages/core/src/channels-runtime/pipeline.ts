import { randomUUID } from "node:crypto";
import { createDeliveryStrategy, sendBudgetFor, sendParts, type SendBudget } from "@openclaw/delivery";
import { type ChatRef, chunkText, type InboundMessage, type OutboundTarget } from "@openclaw/plugin-sdk";
import { type AccessAccount, createPairingStore, decideAccess, idsOf, resolveAccessConfig, resolveGroupSettings } from "../access/index.js";
import { findAgentEntry } from "../agents/index.js";
import { createChatCommands } from "../commands/index.js";
import type { AccountHandle, InboundPipeline, PipelineDeps } from "../gateway/index.js";
import { gaveUpNotice, Inbox, type InboxTurn, type InboxVerdict } from "../inbox/index.js";
import { createMessageTool, resolveRoute } from "../routing/index.js";
import { resolveBlockStreamingSettings } from "../streaming/index.js";
import { checkInboundSize, tooLongNotice } from "./inbound-limit.js";
import { SqliteDeliveryLedger } from "./ledger.js";
import { planDelivery } from "./plan.js";

const chatKeyOf = (chat: { id: string; threadId?: string }) => (chat.threadId ? `${chat.id}:${chat.threadId}` : chat.id);

function mediaText(message: InboundMessage): string {
  const media = message.media ?? [];
  if (media.length === 0) return message.text;
  const notes = media.map((m) => `[${m.kind}${m.fileName ? ` ${m.fileName}` : ""}${m.fileId ? ` file:${m.fileId}` : ""}]`).join(" ");
  return message.text ? `${notes}\n${message.text}` : notes;
}

/** `agents.defaults.humanDelay` as pause bounds: natural = 800-2500 ms, custom = minMs-maxMs. */
function humanDelayOf(d: { mode: "off" | "natural" | "custom"; minMs?: number | undefined; maxMs?: number | undefined }): {
  humanDelay?: { minMs: number; maxMs: number };
} {
  if (d.mode === "natural") return { humanDelay: { minMs: 800, maxMs: 2500 } };
  if (d.mode === "custom") {
    const minMs = d.minMs ?? 0;
    return { humanDelay: { minMs, maxMs: Math.max(minMs, d.maxMs ?? minMs) } };
  }
  return {};
}

/**
 * From inbound message to delivered reply: access gate (pairing codes for strangers), routing to
 * an agent and session, the session queue, and delivery planned from the channel's streaming
 * config and capabilities, through one send budget per account and the delivery ledger.
 */
export function createInboundPipeline(deps: PipelineDeps): InboundPipeline {
  const pairing = createPairingStore(deps.stateDb);
  const ledger = new SqliteDeliveryLedger(deps.stateDb);
  const commands = createChatCommands({ runtime: deps.runtime, queue: deps.queue });
  const budgets = new Map<string, SendBudget>();
  const inFlight = new Set<Promise<unknown>>();
  let accepting = true;
  let _closed = false;

  /** The id rules each loaded channel declares; core has no spelling of its own. */
  const rulesOf = (channel: string) => deps.plugins.get(channel)?.config.ids;

  const budgetOf = (account: AccountHandle): SendBudget => {
    const key = `${account.channel}:${account.accountId}`;
    let budget = budgets.get(key);
    if (!budget) {
      // One budget per account, paced by the quotas the channel declares.
      budget = sendBudgetFor(account.plugin.config.capabilities);
      budgets.set(key, budget);
    }
    return budget;
  };

  // One signal per reply, all aborted by a single listener on their account's signal (which lives
  // as long as the gateway), so replies never pile listeners onto it.
  const liveReplies = new WeakMap<AbortSignal, Set<AbortController>>();
  const replySignal = (account: AccountHandle): { signal: AbortSignal; release(): void } => {
    const accountSignal = account.signal;
    let live = liveReplies.get(accountSignal);
    if (!live) {
      const replies = new Set<AbortController>();
      accountSignal.addEventListener("abort", () => replies.forEach((c) => c.abort(accountSignal.reason)), { once: true });
      liveReplies.set(accountSignal, replies);
      live = replies;
    }
    const controller = new AbortController();
    if (accountSignal.aborted) controller.abort(accountSignal.reason);
    live.add(controller);
    const replies = live;
    return { signal: controller.signal, release: () => void replies.delete(controller) };
  };

  const track = <T>(p: Promise<T>): Promise<T> => {
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p)).catch(() => undefined);
    return p;
  };

  /** The account's message size: the configured `textChunkLimit`, never above the platform's limit. */
  const textLimitOf = (account: AccountHandle): number => {
    const platform = account.plugin.config.capabilities.textLimit;
    const configured = Number(account.config.textChunkLimit);
    return Number.isFinite(configured) && configured > 0 ? Math.min(configured, platform) : platform;
  };

  /** Sends prepared parts to a chat exactly once (recorded in the ledger under `key`). */
  const sendChunks = async (
    account: AccountHandle,
    target: OutboundTarget,
    chunks: readonly string[],
    key: string,
    inReplyTo?: string,
  ): Promise<string[]> => {
    const result = await sendParts({
      outbound: account.outbound,
      budget: budgetOf(account),
      chatKey: chatKeyOf(target.chat),
      target,
      chunks,
      key,
      ledger,
      signal: account.signal,
      ...(inReplyTo !== undefined ? { inReplyTo } : {}),
      info: { channel: account.channel, accountId: account.accountId, target },
    });
    return result.messageIds;
  };

  /** Sends a complete text to a chat (pairing replies, /queue answers, the message tool). */
  const sendPlain = (account: AccountHandle, target: OutboundTarget, text: string, key: string, inReplyTo?: string): Promise<string[]> =>
    sendChunks(account, target, chunkText(text, { maxChars: textLimitOf(account) }), key, inReplyTo);

  /** Sends a complete text to a chat of a running account, exactly once per `key`. */
  const sendTo = (t: { channel: string; accountId: string; chat: ChatRef }, text: string, key: string): Promise<string[]> => {
    const account = deps.accounts.get(t.channel, t.accountId);
    if (!account) return Promise.reject(new Error(`${t.channel}:${t.accountId} is not running`));
    return sendPlain(account, { chat: t.chat }, text, key);
  };

  // Inbound messages are recorded before `receive` resolves and replayed at start until answered.
  const inbox = new Inbox({
    db: deps.stateDb,
    log: deps.log,
    runtime: deps.runtime,
    config: deps.config,
    rulesOf,
    stopping: () => !accepting || deps.stopping?.() === true,
  });

  // Finals a crash or shutdown interrupted: taken now, before this process starts deliveries of
  // its own (which are in the ledger as pending while they run and must not be sent twice). Those
  // of unanswered inbox messages are finished by the inbox replay instead.
  ledger.prune();
  const interrupted = inbox.claimInterrupted(ledger.pending());

  /** Finishes the interrupted finals, with the parts recorded, once their account is running. */
  const resumePending = (entries: typeof interrupted, attempt = 0): void => {
    const waiting: typeof interrupted = [];
    for (const entry of entries) {
      const account = deps.accounts.get(entry.channel, entry.accountId);
      if (!account) {
        waiting.push(entry);
        continue;
      }
      track(
        sendChunks(account, entry.target as OutboundTarget, entry.chunks, entry.key, entry.inReplyTo).catch((err: unknown) =>
          account.log.warn(`could not finish an interrupted reply: ${(err as Error).message}`),
        ),
      );
    }
    if (waiting.length > 0 && attempt < 30) setTimeout(() => resumePending(waiting, attempt + 1), 1000).unref?.();
  };
  if (interrupted.length > 0) setTimeout(() => resumePending(interrupted), 500).unref?.();

  async function handle(message: InboundMessage, account: AccountHandle, turn: InboxTurn): Promise<InboxVerdict | undefined> {
    const accessAccount: AccessAccount = {
      channel: account.channel,
      accountId: account.accountId,
      config: account.config as AccessAccount["config"],
      ids: account.plugin.config.ids,
    };
    const decision = decideAccess(message, accessAccount, pairing);
    if (decision.action === "drop") {
      account.log.info(`ignored message ${message.messageId} from ${message.sender.id}: ${decision.reason}`);
      return turn.dropped(decision.reason);
    }
    const target: OutboundTarget = { chat: message.chat, replyToMessageId: message.messageId };
    if (decision.action === "pair") {
      if (decision.isNew) {
        account.log.info(
          `pairing code issued to ${message.sender.id}; approve with: openclaw pairing approve ${account.channel} ${decision.code}`,
        );
        await sendPlain(
          account,
          { chat: message.chat },
          decision.replyText,
          `pair:${account.channel}:${account.accountId}:${message.chat.id}:${message.messageId}`,
          message.messageId,
        );
      }
      return;
    }

    const tooLong = checkInboundSize(message.text, account.config);
    if (tooLong) {
      account.log.warn(
        `message ${message.messageId} from ${message.sender.id} is ${tooLong.length} characters, over the limit of ${tooLong.limit} (channels.${account.channel}.maxInboundChars); not given to the agent, the sender was told`,
      );
      await sendPlain(account, target, tooLongNotice(tooLong), `${turn.replyKey}:too-long`, message.messageId);
      return turn.dropped(`too long (${tooLong.length} characters, limit ${tooLong.limit})`);
    }

    const route = resolveRoute(message, deps.config, rulesOf);
    if (message.chat.kind !== "direct") {
      const ids = idsOf(accessAccount);
      const group = resolveGroupSettings(
        ids,
        resolveAccessConfig(ids, account.config),
        message.chat.id,
        message.chat.threadId,
        message.chat.aliases,
      );
      deps.runtime.setSessionInstructions(route.sessionKey, group.systemPrompt);
    }
    // Chat commands of allowed senders (a resumed turn was one already, if ever).
    const command =
      turn.text === undefined
        ? await commands.handle({
            text: message.text,
            chatKind: message.chat.kind,
            mentionsBot: message.mentionsBot,
            agentId: route.agentId,
            sessionKey: route.sessionKey,
            channel: account.channel,
          })
        : undefined;
    if (command?.kind === "reply") {
      await sendPlain(account, target, command.text, `${turn.replyKey}:command`, message.messageId);
      return;
    }
    const caps = account.capabilitiesFor(message.chat);
    // The chat's own streaming config when the plugin has one (a per-room override), else the account's.
    const streaming = account.streamingFor(message.chat);
    const plan = planDelivery({
      channel: account.channel,
      policy: account.plugin.config.delivery,
      capabilities: caps,
      streaming,
      blockStreamingDefault: deps.config.agents.defaults.blockStreamingDefault,
      chatKind: message.chat.kind,
    });
    const textLimit = textLimitOf(account);
    const chunkMode = streaming?.chunkMode ?? "length";
    const coalesce = streaming?.block?.coalesce;
    const replyKey = turn.replyKey;
    const reply = replySignal(account);
    const delivery = createDeliveryStrategy(plan, {
      outbound: turn.outbound(account.outbound),
      budget: budgetOf(account),
      ledger,
      target,
      inReplyTo: message.messageId,
      chatKey: chatKeyOf(message.chat),
      replyKey,
      channel: account.channel,
      accountId: account.accountId,
      textLimit,
      editLimit: Math.min(caps.editLimit ?? caps.textLimit, caps.editLimit ?? Infinity),
      minEditIntervalMs: caps.minEditIntervalMs ?? 1000,
      chunkMode,
      ...(caps.nativeStream ? { nativeStream: caps.nativeStream } : {}),
      ...(caps.nativeStreamLimit !== undefined ? { nativeStreamLimit: caps.nativeStreamLimit } : {}),
      ...(caps.typingPersists ? { typingPersists: true } : {}),
      ...(caps.finalEditAfterPreview ? { finalEditAfterPreview: true } : {}),
      previewChunkMax: Number(streaming?.preview?.chunk?.maxChars ?? 800),
      ...(streaming?.preview?.chunk?.minChars !== undefined ? { previewMinChars: streaming.preview.chunk.minChars } : {}),
      ...(streaming?.preview?.toolProgress === false ? { previewToolProgress: false } : {}),
      ...(streaming?.progress ? { progress: streaming.progress } : {}),
      block: resolveBlockStreamingSettings(deps.config, {
        agentId: route.agentId,
        channelTextLimit: textLimit,
        ...(coalesce ? { channelCoalesce: coalesce } : {}),
        channelChunkMode: chunkMode,
      }),
      replyToMode: ((account.config.replyToMode as string | undefined) ?? "off") as "off" | "first" | "all" | "batched",
      typing: caps.typing,
      ...(deps.config.agents.defaults.typingMode ? { typingMode: deps.config.agents.defaults.typingMode } : {}),
      ...humanDelayOf(
        findAgentEntry<{ humanDelay?: Parameters<typeof humanDelayOf>[0] }>(deps.config, route.agentId)?.humanDelay ??
          deps.config.agents.defaults.humanDelay,
      ),
      signal: reply.signal,
      log: account.log,
    });

    try {
      const outcome = await deps.queue.submit({
        agentId: route.agentId,
        sessionKey: route.sessionKey,
        channel: account.channel,
        text: turn.text ?? command?.text ?? mediaText(message),
        onEvent: turn.observe((event) => delivery.onEvent(event)),
        inboundKeys: turn.inboundKeys,
        origin: {
          channel: account.channel,
          chatType: message.chat.kind,
          ...(message.sender.name ? { displayName: message.sender.name } : {}),
        },
      });
      if (outcome.kind === "command") {
        await sendPlain(account, target, outcome.reply, `${replyKey}:command`, message.messageId);
        return;
      }
      if (outcome.kind === "dropped") {
        account.log.warn(`message ${message.messageId} dropped: ${outcome.message}`);
        return turn.verdict(outcome);
      }
      return turn.verdict(outcome, "result" in outcome && outcome.kind !== "ran" ? await outcome.result : undefined);
    } finally {
      // This message's own reply may get no events at all (steered, merged, cancelled, a command).
      await delivery.finish();
      reply.release();
    }
  }

  return {
    async handleInbound(message, account) {
      if (!accepting) throw new Error("the gateway is shutting down");
      // Committed to the inbox before this resolves; a message already there is not handled again.
      const turn = inbox.receive(message);
      if (!turn) return void account.log.info(`message ${message.messageId} is already in the inbox; not handled again`);
      // The turn runs in the background: the plugin's next message (which may steer this run)
      // must not wait for the reply.
      track(inbox.run(turn, account, (t) => handle(message, account, t)));
    },
    start() {
      // Messages a crash or shutdown left unanswered, now that the accounts run.
      track(
        inbox
          .replay({
            accounts: deps.accounts,
            ledger,
            handle: (t, account) => handle(t.message, account, t),
            finishFinal: (account, entry) => sendChunks(account, entry.target as OutboundTarget, entry.chunks, entry.key),
            track,
            giveUp: (message, account, attempts) =>
              sendPlain(
                account,
                { chat: message.chat, replyToMessageId: message.messageId },
                gaveUpNotice(attempts),
                `gave-up:${account.channel}:${account.accountId}:${message.chat.id}:${message.messageId}`,
                message.messageId,
              ),
          })
          .catch((err: unknown) => deps.log.error(`inbox: the replay failed: ${(err as Error).message}`)),
      );
    },
    extraTools(ctx) {
      return [
        createMessageTool({
          config: deps.config,
          pairing,
          rulesOf,
          listAccounts: (channel: string) =>
            deps.accounts
              .list()
              .filter((a) => a.channel === channel)
              .map((a) => a.accountId),
          send: async (t, text) => ({ messageIds: await sendTo(t, text, `message-tool:${ctx.sessionKey}:${randomUUID()}`) }),
        }),
      ];
    },
    send: (target, text, key) => track(sendTo(target, text, key)),
    async idle() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
    async drain({ timeoutMs }) {
      accepting = false;
      const deadline = new Promise((r) => setTimeout(r, timeoutMs).unref?.());
      await Promise.race([Promise.allSettled([...inFlight]), deadline]);
    },
    close() {
      _closed = true;
      budgets.clear();
      inbox.flush();
    },
  };
}
