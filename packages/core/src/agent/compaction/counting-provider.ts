// Every model call counts what it sends against the model's context window.
import { ProviderError, type ModelCandidate, type ModelProvider } from "../../providers/index.js";
import { estimatePromptTokens, type TokenCalibration } from "./tokens.js";

/** What one counted call sent and what the provider reported. */
export interface CountedCall {
  modelRef: string;
  /** Raw estimate of the request. */
  estimated: number;
  /** Input and output tokens the provider reported (absent when it reported none). */
  reported?: { inputTokens: number; outputTokens: number };
}

/**
 * Wraps a provider factory so every call is counted: a request whose calibrated estimate is over
 * the model's context window is refused before it is sent (a `context_overflow` ProviderError,
 * which compaction answers), and the input tokens the provider reports calibrate later estimates.
 */
export function countingProviders(
  create: (candidate: ModelCandidate) => ModelProvider,
  deps: { calibration: TokenCalibration; windowOf(ref: string): number; onCall?(call: CountedCall): void },
): (candidate: ModelCandidate) => ModelProvider {
  return (candidate) => {
    const inner = create(candidate);
    return {
      id: inner.id,
      api: inner.api,
      async *stream(req) {
        const estimated = estimatePromptTokens(req);
        const window = deps.windowOf(candidate.ref);
        const calibrated = deps.calibration.calibrate(candidate.ref, estimated);
        if (calibrated > window) {
          throw new ProviderError({
            kind: "context_overflow",
            message: `${candidate.ref}: the request (about ${calibrated} tokens) does not fit the model's context window of ${window} tokens (models.providers.${candidate.provider}.models[].contextWindow); it was not sent.`,
            provider: candidate.provider,
            model: candidate.model,
          });
        }
        let reported: CountedCall["reported"];
        for await (const event of inner.stream(req)) {
          if (event.type === "usage") {
            reported = { inputTokens: event.inputTokens, outputTokens: event.outputTokens };
            deps.calibration.observe(candidate.ref, estimated, event.inputTokens);
          }
          yield event;
        }
        deps.onCall?.({ modelRef: candidate.ref, estimated, ...(reported ? { reported } : {}) });
      },
    };
  };
}
