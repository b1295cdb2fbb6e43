// The loopback platform: an in-memory chat service that bots (channel accounts) connect to.
// Users talk through `userSays`; bots send, edit and delete through `bot(id)`; tests read each
// chat as its user sees it and inject faults.
import type { ChatKind } from "@openclaw/plugin-sdk";
import { botSendingApi, type BotPlatform, type CallEffect } from "./bot-api.js";
import { Faults } from "./faults.js";
import { ReplyQuotaCounter } from "./reply-quota.js";
import type {
  LoopbackBotApi,
  LoopbackCall,
  LoopbackCallOptions,
  LoopbackChatView,
  LoopbackEvent,
  LoopbackMessage,
  LoopbackOp,
  LoopbackPlatform,
  LoopbackPlatformOptions,
  LoopbackUpdate,
  LoopbackUpdateHandler,
  LoopbackViewMessage,
  UserSaysInput,
} from "./types.js";

interface Chat {
  id: string;
  kind: ChatKind;
  title?: string;
  messages: LoopbackMessage[];
  typing: number;
}

interface BotLine {
  handler: LoopbackUpdateHandler | undefined;
  /** Deliveries waiting for the bot to connect. */
  queued: Array<(handler: LoopbackUpdateHandler) => void>;
  /** Deliveries to one bot are serialized, like a poll loop taking one batch at a time. */
  tail: Promise<void>;
}

interface Waiter {
  check(): void;
}

const VIEW_PREVIEW = 60;

/**
 * Creates an empty loopback platform. Defaults: 4000-character messages (`textLimit`), the same
 * limit for edits, penalties enforced after an injected 429, `Date.now` as the clock.
 */
export function createLoopbackPlatform(options: LoopbackPlatformOptions = {}): LoopbackPlatform {
  const textLimit = Math.max(1, Math.floor(options.textLimit ?? 4000));
  const editLimit = Math.max(1, Math.floor(options.editLimit ?? textLimit));
  const now = options.now ?? Date.now;
  const faults = new Faults(options.enforceRetryAfter ?? true);
  const replies = new ReplyQuotaCounter(options.replyQuota);
  const retain = Math.max(1, Math.floor(options.retainMessages ?? Number.POSITIVE_INFINITY));
  const recordCalls = options.recordCalls ?? true;
  const chats = new Map<string, Chat>();
  const byId = new Map<string, LoopbackMessage>();
  const calls: LoopbackCall[] = [];
  const deliveryErrors: Array<{ botId: string; payload: unknown; error: string }> = [];
  const bots = new Map<string, BotLine>();
  const listeners = new Set<(event: LoopbackEvent) => void>();
  const waiters = new Set<Waiter>();
  let nextMessageId = 1;
  let nextUpdateId = 1;

  const emit = (event: LoopbackEvent): void => {
    for (const listener of [...listeners]) listener(event);
    for (const waiter of [...waiters]) waiter.check();
  };

  const chatOf = (id: string, kind: ChatKind, title?: string): Chat => {
    let chat = chats.get(id);
    if (chat === undefined) {
      chat = { id, kind, messages: [], typing: 0, ...(title !== undefined ? { title } : {}) };
      chats.set(id, chat);
    }
    return chat;
  };

  const lineOf = (botId: string): BotLine => {
    let line = bots.get(botId);
    if (line === undefined) {
      line = { handler: undefined, queued: [], tail: Promise.resolve() };
      bots.set(botId, line);
    }
    return line;
  };

  const handlerOf = (line: BotLine): Promise<LoopbackUpdateHandler> =>
    line.handler !== undefined ? Promise.resolve(line.handler) : new Promise((resolve) => line.queued.push(resolve));

  /** Hands `payload` to the bot (after the updates before it); resolves when its handler resolved. */
  const deliver = (botId: string, payload: unknown): Promise<void> => {
    const line = lineOf(botId);
    const result = line.tail.then(async () => {
      const handler = await handlerOf(line);
      try {
        await handler(payload);
      } catch (error) {
        deliveryErrors.push({ botId, payload, error: error instanceof Error ? error.message : String(error) });
        throw error;
      }
    });
    line.tail = result.catch(() => undefined);
    return result;
  };

  const defaultBot = (): string => {
    const connected = [...bots.entries()].filter(([, l]) => l.handler !== undefined).map(([id]) => id);
    return connected.length === 1 ? connected[0]! : "default";
  };

  const viewOf = (m: LoopbackMessage): LoopbackViewMessage => {
    // A stream's message starts empty; the user sees it from its first text on.
    const history = m.history.map((v) => v.text).filter((text, i) => i > 0 || text !== "" || m.stream === undefined);
    return {
      messageId: m.messageId,
      text: m.text,
      edits: history.length - 1,
      history,
      ...(m.replyToMessageId !== undefined ? { replyToMessageId: m.replyToMessageId } : {}),
      ...(m.threadId !== undefined ? { threadId: m.threadId } : {}),
      ...(m.media !== undefined ? { media: m.media } : {}),
      ...(m.stream !== undefined ? { stream: m.stream.state } : {}),
    };
  };

  const chatView = (chatId: string): LoopbackChatView => {
    const chat = chats.get(chatId);
    const all = chat?.messages ?? [];
    // A stream that has shown no text yet is not visible.
    const bot = all.filter((m) => m.from === "bot" && (m.text !== "" || m.media !== undefined));
    const messages = bot.filter((m) => !m.deleted).map(viewOf);
    return {
      chatId,
      messages,
      texts: messages.map((m) => m.text),
      deleted: bot.filter((m) => m.deleted).map(viewOf),
      userMessages: all.filter((m) => m.from === "user").map((m) => ({ messageId: m.messageId, senderId: m.senderId, text: m.text })),
      typing: chat?.typing ?? 0,
    };
  };

  const describeChats = (): string => {
    const lines = [...chats.values()].map((chat) => {
      const shown = chat.messages.map((m) => `${m.from}${m.deleted ? "(deleted)" : ""}:${JSON.stringify(m.text.slice(0, VIEW_PREVIEW))}`);
      return `chat ${chat.id}: ${shown.join(" | ") || "(empty)"}`;
    });
    return lines.join("\n") || "(no chats)";
  };

  const sleep = (ms: number, signal: AbortSignal | undefined): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      }, ms);
      const onAbort = (): void => {
        clearTimeout(timer);
        reject(signal!.reason);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
    });

  /** One bot call: latency, faults, validation, then the effect; every call that arrives is logged. */
  async function call<T>(
    op: LoopbackOp,
    botId: string,
    chatId: string,
    details: { messageId?: string; text?: string; options: LoopbackCallOptions | undefined },
    effect: (at: number) => CallEffect<T>,
  ): Promise<T> {
    const { options } = details;
    const wait = faults.latency(op);
    if (wait > 0) await sleep(wait, options?.signal);
    else await Promise.resolve();
    if (options?.signal?.aborted) throw options.signal.reason;
    const at = now();
    const record: LoopbackCall = { op, botId, chatId, at, ok: false };
    if (details.messageId !== undefined) record.messageId = details.messageId;
    if (details.text !== undefined) record.text = details.text;
    if (options?.priority !== undefined) record.priority = options.priority;
    if (options?.idempotencyKey !== undefined) record.idempotencyKey = options.idempotencyKey;
    if (options?.inReplyTo !== undefined) record.inReplyTo = options.inReplyTo;
    const inReplyTo = options?.inReplyTo;
    const refused = faults.check(op, chatId, at) ?? replies.check(op, chatId, inReplyTo, at);
    const outcome = refused === undefined ? effect(at) : { refusal: refused };
    if (outcome.refusal === undefined) replies.spend(op, chatId, inReplyTo, at);
    if (outcome.messageId !== undefined) record.messageId = outcome.messageId;
    if (outcome.refusal !== undefined) {
      record.error = outcome.refusal.code;
      if (outcome.refusal.retryAfterMs !== undefined) record.retryAfterMs = outcome.refusal.retryAfterMs;
    } else {
      record.ok = true;
    }
    if (recordCalls) calls.push(record);
    emit({ type: "call", call: record });
    if (outcome.refusal !== undefined) throw outcome.refusal.error;
    return outcome.value as T;
  }

  /** Adds a message to its chat, forgetting the oldest beyond `retainMessages`. */
  const addMessage = (chat: Chat, message: LoopbackMessage): void => {
    chat.messages.push(message);
    byId.set(message.messageId, message);
    while (chat.messages.length > retain) byId.delete(chat.messages.shift()!.messageId);
  };

  const botPlatform: BotPlatform = {
    textLimit,
    editLimit,
    byId,
    call,
    add: (chat, message) => addMessage(chatOf(chat.id, chat.kind), message),
    nextMessageId: () => String(nextMessageId++),
    typing(chatId) {
      const chat = chats.get(chatId);
      if (chat !== undefined) chat.typing += 1;
    },
    emit,
  };

  const bot = (botId: string): LoopbackBotApi => ({
    botId,
    connect(handler) {
      const line = lineOf(botId);
      line.handler = handler;
      emit({ type: "connected", botId });
      for (const wake of line.queued.splice(0)) wake(handler);
      return () => {
        if (line.handler !== handler) return;
        line.handler = undefined;
        emit({ type: "disconnected", botId });
      };
    },
    ...botSendingApi(botPlatform, botId),
  });

  return {
    textLimit,
    editLimit,
    calls,
    deliveryErrors,
    userSays(input: UserSaysInput) {
      const sender = typeof input.sender === "string" ? { id: input.sender } : input.sender;
      const kind = input.kind ?? "direct";
      const chatId = input.chat ?? sender.id;
      const botId = input.bot ?? defaultBot();
      const at = now();
      const replyTo = input.replyTo !== undefined ? byId.get(input.replyTo) : undefined;
      const message: LoopbackMessage = {
        messageId: String(nextMessageId++),
        chatId,
        chatKind: kind,
        from: "user",
        botId,
        senderId: sender.id,
        text: input.text,
        history: [{ text: input.text, at }],
        deleted: false,
        sentAt: at,
        ...(input.threadId !== undefined ? { threadId: input.threadId } : {}),
        ...(input.replyTo !== undefined ? { replyToMessageId: input.replyTo } : {}),
      };
      addMessage(chatOf(chatId, kind, input.title), message);
      const update: LoopbackUpdate = {
        updateId: nextUpdateId++,
        type: "message",
        message: {
          messageId: message.messageId,
          chat: {
            id: chatId,
            kind,
            ...(input.title !== undefined ? { title: input.title } : {}),
            ...(input.threadId !== undefined ? { threadId: input.threadId } : {}),
          },
          from: sender,
          text: input.text,
          mentionsBot: input.mentionsBot ?? kind === "direct",
          date: at,
          ...(replyTo !== undefined
            ? { replyTo: { messageId: replyTo.messageId, fromBot: replyTo.from === "bot", text: replyTo.text } }
            : {}),
        },
      };
      emit({ type: "user_message", message });
      return deliver(botId, update).then(() => message);
    },
    injectRaw(payload, injectOptions) {
      return deliver(injectOptions?.bot ?? defaultBot(), payload);
    },
    chatView,
    messages(chatId) {
      if (chatId !== undefined) return [...(chats.get(chatId)?.messages ?? [])];
      return [...byId.values()];
    },
    duplicateSends() {
      const seen = new Map<string, number>();
      for (const m of byId.values()) {
        if (m.from === "bot" && m.idempotencyKey !== undefined) seen.set(m.idempotencyKey, (seen.get(m.idempotencyKey) ?? 0) + 1);
      }
      return [...seen.entries()].filter(([, n]) => n > 1).map(([key]) => key);
    },
    rateLimit: (count, retryAfterMs, rateOptions) => faults.rateLimit(count, retryAfterMs, rateOptions),
    failEdits: (count = Number.POSITIVE_INFINITY) => faults.failEdits(count),
    failNext: (op, error) => faults.failNext(op, error),
    setLatency: (ms) => faults.setLatency(ms),
    clearFaults: () => faults.clear(),
    bot,
    connectedBots: () => [...bots.entries()].filter(([, l]) => l.handler !== undefined).map(([id]) => id),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    waitFor<T>(predicate: () => T | undefined | null | false, waitOptions: { timeoutMs?: number; what?: string } = {}) {
      const timeoutMs = waitOptions.timeoutMs ?? 5000;
      return new Promise<T>((resolve, reject) => {
        let timer: NodeJS.Timeout | undefined;
        const waiter: Waiter = {
          check() {
            let value: T | undefined | null | false;
            try {
              value = predicate();
            } catch (error) {
              finish();
              reject(error);
              return;
            }
            if (value) {
              finish();
              resolve(value);
            }
          },
        };
        const finish = (): void => {
          if (timer !== undefined) clearTimeout(timer);
          waiters.delete(waiter);
        };
        waiters.add(waiter);
        waiter.check();
        if (!waiters.has(waiter)) return;
        timer = setTimeout(() => {
          finish();
          reject(
            new Error(`loopback: timed out after ${timeoutMs} ms waiting for ${waitOptions.what ?? "a condition"}\n${describeChats()}`),
          );
        }, timeoutMs);
      });
    },
    reset() {
      chats.clear();
      byId.clear();
      calls.length = 0;
      deliveryErrors.length = 0;
      faults.clear();
      replies.clear();
    },
  };
}
