/**
 * Undecryptable-event tracking: each event that fails to decrypt is reported once; when its room
 * key arrives later (the Rust crypto retries by itself and emits `MatrixEventEvent.Decrypted`
 * again) it is reported once more, decrypted. Never twice for the same event id either way.
 */
import type { MatrixClient, MatrixEvent } from "matrix-js-sdk";
import { MatrixEventEvent } from "../matrix-sdk.js";

/** What `MatrixE2ee.watch` calls. A throwing handler is logged by the caller, never retried. */
export interface DecryptionHandlers {
  /** Called once for an event that could not be decrypted (its room key has not arrived). */
  undecryptable(event: MatrixEvent): void;
  /** Called once when an event reported to `undecryptable` has since been decrypted. */
  decrypted(event: MatrixEvent): void;
}

/** How many event ids are remembered per state; the oldest are forgotten first. */
const REMEMBERED = 10_000;

class BoundedSet {
  private readonly ids = new Set<string>();
  constructor(private readonly limit: number) {}
  has(id: string): boolean {
    return this.ids.has(id);
  }
  add(id: string): void {
    this.ids.add(id);
    if (this.ids.size > this.limit) {
      const oldest = this.ids.values().next().value;
      if (oldest !== undefined) this.ids.delete(oldest);
    }
  }
  delete(id: string): void {
    this.ids.delete(id);
  }
}

/**
 * Subscribes to decryption results on `client`. Events sent by `ownUserId` itself are ignored.
 * `onHandlerError` receives what a handler threw. Returns the unsubscribe function.
 */
export function watchDecryption(
  client: MatrixClient,
  ownUserId: string,
  handlers: DecryptionHandlers,
  onHandlerError: (error: unknown, event: MatrixEvent) => void,
): () => void {
  const pending = new BoundedSet(REMEMBERED);
  const done = new BoundedSet(REMEMBERED);
  const call = (handler: (event: MatrixEvent) => void, event: MatrixEvent): void => {
    try {
      handler(event);
    } catch (error) {
      onHandlerError(error, event);
    }
  };
  const onDecrypted = (event: MatrixEvent): void => {
    const id = event.getId();
    if (!id || event.getSender() === ownUserId || done.has(id)) return;
    if (event.isDecryptionFailure()) {
      if (pending.has(id)) return;
      pending.add(id);
      call(handlers.undecryptable, event);
      return;
    }
    if (!pending.has(id)) return;
    pending.delete(id);
    done.add(id);
    call(handlers.decrypted, event);
  };
  client.on(MatrixEventEvent.Decrypted, onDecrypted);
  return () => {
    client.off(MatrixEventEvent.Decrypted, onDecrypted);
  };
}
