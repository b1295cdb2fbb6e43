// The silent reply token: an agent that answers exactly NO_REPLY sends nothing to the chat
// (reference §8: it suppresses both delivery and preview).

/** The token an agent replies with to stay silent. */
export const SILENT_REPLY_TOKEN = "NO_REPLY";

/** One layer of simple Markdown wrapping: *x*, **x**, ***x***, _x_, __x__, `x`, ``x``, ~~x~~. */
const WRAPPER = /^(\*{1,3}|_{1,3}|`{1,3}|~~)\s*([\s\S]*?)\s*\1$/;
const WRAPPER_CHARS = /^[\s*_`~]*/;
const TRAILING_WRAPPER_CHARS = /^[\s*_`~]*$/;

/**
 * True when the whole reply, trimmed, is `NO_REPLY` (case-insensitive), also when wrapped in
 * up to three layers of simple emphasis or backticks (`**NO_REPLY**`, `` `NO_REPLY` ``).
 * Text around the token ("NO_REPLY, sorry") is a normal reply.
 */
export function isSilentReply(text: string | null | undefined): boolean {
  if (!text) return false;
  let inner = text.trim();
  for (let layer = 0; layer < 3; layer++) {
    const match = WRAPPER.exec(inner);
    if (!match) break;
    inner = match[2]!;
  }
  return inner.toUpperCase() === SILENT_REPLY_TOKEN;
}

/** True while `text` is the start of something `isSilentReply` could still accept. */
function couldBecomeSilent(text: string): boolean {
  const rest = text.replace(WRAPPER_CHARS, "");
  const token = SILENT_REPLY_TOKEN;
  if (rest.length <= token.length) return token.startsWith(rest.toUpperCase());
  return rest.slice(0, token.length).toUpperCase() === token && TRAILING_WRAPPER_CHARS.test(rest.slice(token.length));
}

export interface SilentReplyGuard {
  /**
   * Takes a delta; returns the text that may be shown now. Holds the start of the reply back
   * while it could still turn out to be `NO_REPLY`, then releases it all at once.
   */
  push(delta: string): string;
  /**
   * Ends the reply (or text block): `silent` when it was exactly `NO_REPLY` (nothing is
   * released), otherwise `text` is whatever was still held back (often "").
   */
  end(): { silent: boolean; text: string };
  /** True while text is held back. */
  readonly holding: boolean;
}

/** Creates a guard for one reply; after `end()` it starts over for the next one. */
export function createSilentReplyGuard(): SilentReplyGuard {
  let held = "";
  let released = false;
  return {
    push(delta) {
      if (released) return delta;
      held += delta;
      if (couldBecomeSilent(held)) return "";
      released = true;
      const out = held;
      held = "";
      return out;
    },
    end() {
      const text = held;
      const wasReleased = released;
      held = "";
      released = false;
      if (!wasReleased && isSilentReply(text)) return { silent: true, text: "" };
      return { silent: false, text };
    },
    get holding() {
      return held.length > 0;
    },
  };
}
