import { toProviderError } from "./errors.js";
import type { ModelCandidate } from "./model-ref.js";
import { ProviderError, type ModelProvider, type ModelRequest, type ModelStreamEvent } from "./types.js";

/**
 * True when the next model may succeed where this one failed: auth, rate_limit, overloaded,
 * timeout and unknown errors (including non-ProviderErrors). False for abort (the user stopped),
 * context_overflow (compaction handles it) and bad_request (our request is at fault).
 */
export function isFallbackWorthy(err: unknown): boolean {
  if (err instanceof ProviderError) return err.kind !== "abort" && err.kind !== "context_overflow" && err.kind !== "bad_request";
  const name = (err as { name?: unknown } | null)?.name;
  return name !== "AbortError";
}

/** Emitted once, before the first event of the model that answers. */
export interface ModelSelectedEvent {
  type: "model_selected";
  candidate: ModelCandidate;
  /** 0 for the primary, 1 for the first fallback that was tried, … */
  attempt: number;
  /** Why earlier candidates were skipped, in order. */
  errors: ProviderError[];
}

export type FallbackStreamEvent = ModelStreamEvent | ModelSelectedEvent;

export interface FallbackInfo {
  from: ModelCandidate;
  to: ModelCandidate;
  error: ProviderError;
  /** The attempt number of `to`. */
  attempt: number;
}

export interface StreamWithFallbackOptions {
  /** Builds (or returns a cached) provider for a candidate; it may throw a ProviderError. */
  createProvider(candidate: ModelCandidate): ModelProvider;
  /** Called when a candidate failed before any output and the next one is about to be tried. */
  onFallback?(info: FallbackInfo): void;
}

/**
 * Streams the request from the first candidate that answers. It moves on to the next candidate
 * only when the current one failed before yielding anything and the error is fallback-worthy
 * ({@link isFallbackWorthy}); once output has been yielded, a failure is thrown as is (streamed
 * text is never duplicated). Yields a `model_selected` event naming the answering model before
 * its first event. Request `params` win over the candidate's `params`. When every candidate
 * fails, throws the last error (its message lists every attempt when there were several).
 */
export async function* streamWithFallback(
  candidates: readonly ModelCandidate[],
  request: Omit<ModelRequest, "model">,
  options: StreamWithFallbackOptions,
): AsyncGenerator<FallbackStreamEvent> {
  if (candidates.length === 0) {
    throw new ProviderError({
      kind: "bad_request",
      message: "no model candidates to try; configure agents.defaults.model",
      provider: "",
      model: "",
    });
  }
  const errors: ProviderError[] = [];
  for (let attempt = 0; attempt < candidates.length; attempt += 1) {
    const candidate = candidates[attempt] as ModelCandidate;
    const ctx = { provider: candidate.provider, model: candidate.model, signal: request.signal };
    let yielded = false;
    try {
      if (request.signal.aborted) throw toProviderError(request.signal.reason, ctx);
      const provider = options.createProvider(candidate);
      const params = candidate.params || request.params ? { ...candidate.params, ...request.params } : undefined;
      const req: ModelRequest = { ...request, model: candidate.model, ...(params ? { params } : {}) };
      for await (const event of provider.stream(req)) {
        if (!yielded) {
          yielded = true;
          yield { type: "model_selected", candidate, attempt, errors: [...errors] };
        }
        yield event;
      }
      if (!yielded) yield { type: "model_selected", candidate, attempt, errors: [...errors] };
      return;
    } catch (raw) {
      const error = toProviderError(raw, ctx);
      if (yielded) throw error;
      errors.push(error);
      const next = candidates[attempt + 1];
      if (!next || !isFallbackWorthy(error)) throw errors.length > 1 && next === undefined ? exhausted(errors) : error;
      try {
        options.onFallback?.({ from: candidate, to: next, error, attempt: attempt + 1 });
      } catch {
        // A failing observer must not change which model answers.
      }
    }
  }
  throw exhausted(errors);
}

function exhausted(errors: ProviderError[]): ProviderError {
  const last = errors[errors.length - 1] as ProviderError;
  if (errors.length === 1) return last;
  return new ProviderError({
    kind: last.kind,
    message: `All ${errors.length} models failed:\n${errors.map((e) => `- ${e.message}`).join("\n")}`,
    provider: last.provider,
    model: last.model,
    ...(last.status !== undefined ? { status: last.status } : {}),
    ...(last.retryAfterMs !== undefined ? { retryAfterMs: last.retryAfterMs } : {}),
    cause: last,
  });
}
