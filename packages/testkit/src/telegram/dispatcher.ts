import { FakeTelegramApiError } from "./errors.js";
import { FaultPlan } from "./faults.js";
import type { MethodContext, MethodHandler } from "./method-context.js";
import { botMethods } from "./methods-bot.js";
import { mediaMethods } from "./methods-media.js";
import { messageMethods } from "./methods-messages.js";
import { updateMethods } from "./methods-updates.js";
import type { TelegramStore } from "./store.js";
import type { FakeMethodHandler, FakeTelegramCall, TgResponse } from "./types.js";

const BUILT_IN: Record<string, MethodHandler> = { ...botMethods, ...updateMethods, ...messageMethods, ...mediaMethods };

/** The answer to one call: a body and status, or a connection to cut. */
export type CallOutcome = { drop: true } | { drop: false; status: number; body: TgResponse };

function errorOutcome(error: FakeTelegramApiError): CallOutcome {
  return { drop: false, status: error.errorCode, body: error.toBody() };
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (ms <= 0 || signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}

/**
 * Runs Bot API calls against the store: latency, injected faults and flood control first, then
 * the method (custom handlers before built-in ones; names are case-insensitive).
 */
export class Dispatcher {
  readonly faults: FaultPlan;
  latencyMs = 0;
  private readonly builtIn = new Map<string, [string, MethodHandler]>();
  private custom = new Map<string, [string, FakeMethodHandler]>();

  constructor(
    private readonly store: TelegramStore,
    private readonly hooks: { notify(): void; changed(): Promise<void>; rejectUnknownChats: boolean },
    rateLimit: ConstructorParameters<typeof FaultPlan>[0],
  ) {
    this.faults = new FaultPlan(rateLimit);
    for (const [name, handler] of Object.entries(BUILT_IN)) this.builtIn.set(name.toLowerCase(), [name, handler]);
  }

  /** The canonical spelling of a method name, or the name as given when unknown. */
  canonical(method: string): string {
    const key = method.toLowerCase();
    return this.custom.get(key)?.[0] ?? this.builtIn.get(key)?.[0] ?? method;
  }

  handle(method: string, handler: FakeMethodHandler): void {
    this.custom.set(method.toLowerCase(), [method, handler]);
  }

  clear(): void {
    this.custom.clear();
    this.faults.clear();
    this.latencyMs = 0;
  }

  async run(call: FakeTelegramCall, params: Record<string, any>, signal: AbortSignal): Promise<CallOutcome> {
    const method = call.method;
    await sleep(this.latencyMs, signal);
    const drop = this.faults.takeDrop(method);
    if (drop && !drop.applyFirst) return { drop: true };
    const injected = this.faults.takeError(method);
    if (injected) return errorOutcome(injected);
    const key = method.toLowerCase();
    const custom = this.custom.get(key);
    const builtIn = this.builtIn.get(key);
    if (!custom && !builtIn) return errorOutcome(new FakeTelegramApiError(404, "Not Found"));
    const chatKey = params.chat_id === undefined || params.chat_id === null ? undefined : String(params.chat_id);
    const limited = this.faults.checkRate(method, chatKey);
    if (limited) return errorOutcome(limited);
    let result: unknown;
    try {
      if (custom) {
        result = await custom[1](params, call);
      } else {
        const ctx: MethodContext = {
          store: this.store,
          params,
          call,
          signal,
          rejectUnknownChats: this.hooks.rejectUnknownChats,
          notify: () => this.hooks.notify(),
          changed: () => this.hooks.changed(),
        };
        result = await builtIn![1](ctx);
      }
    } catch (error) {
      if (error instanceof FakeTelegramApiError) return errorOutcome(error);
      const message = error instanceof Error ? error.message : String(error);
      return errorOutcome(new FakeTelegramApiError(500, `Internal Server Error: ${message}`));
    }
    if (drop) return { drop: true };
    return { drop: false, status: 200, body: { ok: true, result: result === undefined ? true : result } };
  }
}
