/**
 * Scripts for the fake model servers. A script is a queue of turns; each model call takes the
 * next turn, or asks the responder when the queue is empty. A turn is a list of steps played in
 * order over one HTTP response.
 */

/** An HTTP error the fake answers with (or, after output has started, an in-stream error). */
export interface FakeErrorSpec {
  /** HTTP status, e.g. 401, 429, 400, 503, 529. */
  status: number;
  /**
   * Human-readable message. Default: the platform's usual wording for `status` (for example
   * OpenAI's "Rate limit reached…" or Anthropic's "Overloaded").
   */
  message?: string;
  /** A full JSON body that replaces the platform-shaped one. */
  body?: unknown;
  /** Adds a `retry-after` header (seconds). */
  retryAfterSec?: number;
  /** Uses the platform's context-length wording and code (status should be 400). */
  contextOverflow?: boolean;
  /** Extra response headers. */
  headers?: Record<string, string>;
}

/** One step of a scripted turn. */
export type FakeStep =
  /** Assistant text, split into several deltas of at most `chunkChars` characters (default: the server's `chunkChars`). */
  | { text: string; chunkChars?: number }
  /** A tool call; `arguments` is JSON-encoded unless it is already a string, and streamed in pieces. */
  | { toolCall: { name: string; arguments?: unknown; id?: string } }
  /** Waits before the next step (a slow model). Cut short when the client goes away. */
  | { delayMs: number }
  /**
   * Holds the response here until the promise settles (a gate the test opens, e.g. once it has
   * seen what the client did with the text so far); a rejection counts as settling. Cut short
   * when the client goes away.
   */
  | { until: PromiseLike<unknown> }
  /** Answers with an HTTP error if nothing was sent yet; otherwise sends the platform's in-stream error event and ends. */
  | { error: FakeErrorSpec }
  /** Drops the TCP connection right here, without a terminating event. */
  | { hangUp: true }
  /** Overrides the token usage reported at the end of the turn (default: estimated from characters). */
  | { usage: { inputTokens: number; outputTokens: number } }
  /** Reports the turn as cut off by the token limit ("length" / "max_tokens"). Default: a natural stop, or tool use when the turn has tool calls. */
  | { stopReason: "stop" | "length" };

/** One model response: its steps, played in order. */
export type FakeTurn = FakeStep[];

/** What a fake server saw of one model call. */
export interface RecordedRequest {
  method: string;
  /** Path including query, e.g. "/v1/chat/completions". */
  path: string;
  /** Request headers, names lowercased. */
  headers: Record<string, string>;
  /** The parsed JSON body (undefined when the body was not JSON). */
  body: any;
  /** Milliseconds since the epoch when the request arrived. */
  receivedAt: number;
  /**
   * How the response ended: "completed" (fully sent), "error" (an HTTP or in-stream error),
   * "rejected" (auth or header check failed), "hung_up" (a hangUp step), "client_closed" (the
   * client went away first, e.g. an aborted request), or undefined while still in flight.
   */
  outcome?: "completed" | "error" | "rejected" | "hung_up" | "client_closed";
}

/** Produces a turn for a request when the script queue is empty. */
export type FakeResponder = (request: RecordedRequest) => FakeTurn | Promise<FakeTurn>;

export interface FakeModelServerOptions {
  /** Turns played in order, one per model call. Default: none (the responder answers). */
  script?: FakeTurn[];
  /** Answers calls once the script is used up. Default: {@link echoResponder}. */
  responder?: FakeResponder;
  /** When set, calls with another (or no) key get the platform's real 401 error. Default: any key is accepted. */
  expectedApiKey?: string;
  /** Largest text or tool-argument delta, in characters. Default 8. */
  chunkChars?: number;
  /** Pause between deltas. Default 0: no added latency at all (suitable for benchmarks). */
  chunkDelayMs?: number;
  /** Model ids listed by `GET /v1/models`. Default: one fake model. */
  models?: string[];
}

/** A running fake model server on 127.0.0.1. */
export interface FakeModelServer {
  /** The URL to hand to the client library's `baseURL`. */
  readonly baseUrl: string;
  /** `http://127.0.0.1:<port>`. */
  readonly origin: string;
  readonly port: number;
  /** Every model call received (including rejected ones), oldest first. `GET /v1/models` is not recorded. */
  readonly requests: readonly RecordedRequest[];
  /** Scripted turns not yet played. */
  readonly pendingTurns: number;
  /** Appends turns to the script queue. */
  enqueue(...turns: FakeTurn[]): void;
  /** Replaces the responder used once the queue is empty. */
  setResponder(responder: FakeResponder): void;
  /** The most recent model call, if any. */
  lastRequest(): RecordedRequest | undefined;
  /** Resolves once at least `count` model calls have arrived. */
  waitForRequests(count: number): Promise<RecordedRequest[]>;
  /** Resolves when no response is in flight (every call has completed, failed or been dropped). */
  idle(): Promise<void>;
  /** Ends open streams, drops connections and stops listening. Safe to call twice. */
  close(): Promise<void>;
}
