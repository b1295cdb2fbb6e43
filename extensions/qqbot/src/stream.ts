/**
 * The C2C native stream (`POST /v2/users/{openid}/stream_messages`): replace mode, so every chunk
 * carries the whole text so far; one `msg_seq` for the session, a rising `index`, the
 * `stream_msg_id` the first chunk was answered with, and a last chunk in the done state (10).
 * Core paces updates (`minEditIntervalMs`, 500 ms); calls on one stream run one at a time.
 */
import { PermanentSendError, type NativeStream, type SentMessage } from "@openclaw/plugin-sdk";
import type { QQApi } from "./api.js";

const GENERATING = 1;
const DONE = 10;

/** What a stream needs: the API, the user's openid, the user message it answers, its msg_seq. */
export interface C2CStreamOptions {
  api: QQApi;
  openid: string;
  msgId: string;
  msgSeq: number;
  signal?: AbortSignal;
}

/** One stream session in a C2C chat (one passive reply of `msgId`). */
export class C2CStream implements NativeStream {
  readonly #o: C2CStreamOptions;
  #streamMsgId: string | undefined;
  #index = 0;
  #done = false;
  #lastText = "";
  #chain: Promise<unknown> = Promise.resolve();

  constructor(options: C2CStreamOptions) {
    this.#o = options;
  }

  update(text: string): Promise<void> {
    return this.#serial(async () => {
      if (this.#done || text.trim() === "" || text === this.#lastText) return;
      await this.#chunk(text, GENERATING);
    });
  }

  finish(finalText: string): Promise<SentMessage> {
    return this.#serial(async () => {
      if (this.#done) throw new PermanentSendError("QQ Bot: this stream was already finished", "stream_done");
      await this.#chunk(finalText, DONE);
      return { messageId: this.#streamMsgId! };
    });
  }

  abort(_reason: string): Promise<void> {
    return this.#serial(async () => {
      // Close an open stream holding what the user has already seen; an unopened one needs nothing.
      if (this.#done || this.#streamMsgId === undefined) {
        this.#done = true;
        return;
      }
      await this.#chunk(this.#lastText, DONE);
    });
  }

  async #chunk(text: string, state: number): Promise<void> {
    const { api, openid, msgId, msgSeq, signal } = this.#o;
    const body = {
      input_mode: "replace",
      input_state: state,
      content_type: "markdown",
      content_raw: text,
      event_id: msgId,
      msg_id: msgId,
      msg_seq: msgSeq,
      index: this.#index,
      ...(this.#streamMsgId !== undefined ? { stream_msg_id: this.#streamMsgId } : {}),
    };
    const answer = await api.request<{ id?: unknown }>("POST", `/v2/users/${encodeURIComponent(openid)}/stream_messages`, body, signal);
    if (this.#streamMsgId === undefined) {
      if (typeof answer.id !== "string" || answer.id === "")
        throw new PermanentSendError("QQ Bot stream_messages answered without a stream id", "stream_id");
      this.#streamMsgId = answer.id;
    }
    this.#index += 1;
    this.#lastText = text;
    if (state === DONE) this.#done = true;
  }

  #serial<T>(run: () => Promise<T>): Promise<T> {
    const next = this.#chain.then(run, run);
    this.#chain = next.catch(() => undefined);
    return next;
  }
}
