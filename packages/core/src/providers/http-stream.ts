// A model call over plain `fetch`: POST a JSON body, read the answer as server-sent events.
// Failures are thrown in the shapes errors.ts classifies (the same fields the official client
// libraries use: `status`, `headers`, `error`, and the names APIError / APIConnectionError).

/** A non-2xx answer, or an `error` object sent inside the stream (then without `status`). */
export class ApiError extends Error {
  override name = "APIError";
  /** The server's error object (`{message, type, code}` for OpenAI-compatible servers). */
  readonly error: Record<string, unknown>;
  readonly type: string | undefined;
  readonly code: string | undefined;

  constructor(
    readonly status: number | undefined,
    body: unknown,
    readonly headers: Headers | undefined,
  ) {
    const error = errorObjectOf(body);
    const text = typeof error.message === "string" && error.message !== "" ? error.message : undefined;
    super(status === undefined ? (text ?? "error in the stream") : `${status} ${text ?? "status code (no body)"}`);
    this.error = error;
    this.type = typeof error.type === "string" ? error.type : undefined;
    this.code = typeof error.code === "string" ? error.code : undefined;
  }
}

/** The request never got an answer (refused, unreachable, reset before headers). `cause` says why. */
export class ApiConnectionError extends Error {
  override name = "APIConnectionError";
}

function errorObjectOf(body: unknown): Record<string, unknown> {
  if (body && typeof body === "object") {
    const inner = (body as { error?: unknown }).error;
    if (inner && typeof inner === "object") return inner as Record<string, unknown>;
    return body as Record<string, unknown>;
  }
  return typeof body === "string" && body !== "" ? { message: body } : {};
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * POSTs `body` as JSON to `url` and returns the streaming response. A non-2xx answer throws an
 * {@link ApiError} carrying the parsed error body and the headers (for `retry-after`); a failed
 * connection throws an {@link ApiConnectionError} with the network error as `cause`; an aborted
 * `signal` rejects with the abort reason.
 */
export async function postForStream(url: string, headers: Record<string, string>, body: unknown, signal: AbortSignal): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "text/event-stream", ...headers },
      body: JSON.stringify(body),
      signal,
    });
  } catch (err) {
    if (signal.aborted) throw err;
    throw new ApiConnectionError("Connection error.", { cause: err });
  }
  if (!response.ok) throw new ApiError(response.status, parseJson(await response.text()), response.headers);
  return response;
}

/** One server-sent event: its `event:` name ("message" when absent) and its joined `data:` lines. */
export interface ServerSentEvent {
  event: string;
  data: string;
}

/**
 * Parses a `text/event-stream` body (WHATWG rules: LF, CRLF or CR line ends; `:` comments; `data:`
 * lines joined with "\n"; an event ends at a blank line; `id:`/`retry:` ignored). An event left
 * unterminated when the body ends is dropped, as the spec says. Leaving the loop early cancels
 * the body (closing the connection).
 */
export async function* readServerSentEvents(body: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): AsyncGenerator<ServerSentEvent> {
  const decoder = new TextDecoder();
  let buffer = "";
  let event = "";
  let data: string[] = [];
  for await (const bytes of body) {
    buffer += decoder.decode(bytes, { stream: true });
    let end = buffer.search(/\r\n|\r|\n/);
    // A lone CR at the very end may be the first half of CRLF: wait for more.
    while (end !== -1 && !(buffer[end] === "\r" && end === buffer.length - 1)) {
      const line = buffer.slice(0, end);
      buffer = buffer.slice(end + (buffer.startsWith("\r\n", end) ? 2 : 1));
      if (line === "") {
        if (data.length > 0) yield { event: event || "message", data: data.join("\n") };
        event = "";
        data = [];
      } else if (!line.startsWith(":")) {
        const colon = line.indexOf(":");
        const field = colon === -1 ? line : line.slice(0, colon);
        let value = colon === -1 ? "" : line.slice(colon + 1);
        if (value.startsWith(" ")) value = value.slice(1);
        if (field === "data") data.push(value);
        else if (field === "event") event = value;
      }
      end = buffer.search(/\r\n|\r|\n/);
    }
  }
}
