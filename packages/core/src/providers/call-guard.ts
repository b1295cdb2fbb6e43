import { toProviderError, type ErrorContext } from "./errors.js";
import { ProviderError } from "./types.js";

/**
 * Watches one streamed model call: links the caller's signal to the client library's, and aborts
 * the call when nothing arrives for `idleMs` (before the response starts or between chunks).
 * Client libraries end a stream silently when aborted, so `finish` turns that into the right
 * ProviderError.
 */
export class CallGuard {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private timedOut = false;
  private readonly onOuterAbort = () => this.controller.abort(this.ctx.signal?.reason);

  constructor(
    private readonly ctx: ErrorContext & { signal: AbortSignal },
    private readonly idleMs: number,
  ) {
    if (ctx.signal.aborted) this.controller.abort(ctx.signal.reason);
    else ctx.signal.addEventListener("abort", this.onOuterAbort, { once: true });
    this.touch();
  }

  /** The signal to hand to the client library. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Call on every chunk received: restarts the idle timer. */
  touch(): void {
    if (this.timer) clearTimeout(this.timer);
    if (this.controller.signal.aborted) return;
    this.timer = setTimeout(() => {
      this.timedOut = true;
      this.controller.abort(new Error("idle timeout"));
    }, this.idleMs);
    this.timer.unref?.();
  }

  /** Stops the timer and unlinks the caller's signal. */
  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.ctx.signal.removeEventListener("abort", this.onOuterAbort);
  }

  /** Throws if the call was aborted or timed out (the library may have ended the stream quietly). */
  throwIfStopped(): void {
    const stopped = this.stoppedError();
    if (stopped) throw stopped;
  }

  /** Maps a failure, preferring abort and idle timeout over what the library reported. */
  fail(err: unknown): ProviderError {
    return this.stoppedError(err) ?? toProviderError(err, this.ctx);
  }

  private stoppedError(cause?: unknown): ProviderError | undefined {
    const { provider, model } = this.ctx;
    if (this.ctx.signal.aborted) {
      return new ProviderError({ kind: "abort", message: `${provider}/${model}: the request was aborted`, provider, model, cause });
    }
    if (this.timedOut) {
      return new ProviderError({
        kind: "timeout",
        message: `${provider}/${model}: no data from ${this.ctx.baseUrl ?? "the provider"} for ${this.idleMs >= 1000 ? `${Math.round(this.idleMs / 1000)} s` : `${this.idleMs} ms`}; raise models.providers.${provider}.timeoutSeconds if the model is just slow`,
        provider,
        model,
        cause,
      });
    }
    return undefined;
  }
}

/** Parses streamed tool-call arguments: "" -> {}, valid JSON -> its value, anything else -> the raw text. */
export function parseToolArguments(text: string): unknown {
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
