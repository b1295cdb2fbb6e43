/**
 * IndexedDB for the Rust crypto store in Node, one fake-indexeddb factory per account.
 *
 * matrix-js-sdk 36.2.0 opens its crypto databases under a fixed name ("matrix-js-sdk::…") on
 * `globalThis.indexedDB`, so two accounts in one process would share one store. Each account gets
 * its own `IDBFactory` instead (its own database namespace, restored from and snapshotted to the
 * account's folder), and `withIndexedDb` points the global at it while `initRustCrypto` opens the
 * databases. The opened connections keep their factory afterwards, so the global is put back at
 * once. Opens are serialized process-wide; nothing else should open IndexedDB concurrently with
 * `initRustCrypto` (a test's second client: create it before or after, not during).
 */
import * as fakeIndexedDb from "fake-indexeddb";
import type { IdbFactoryLike } from "./idb-snapshot.js";

/** A fresh, empty, in-memory IndexedDB factory. */
export function createIndexedDbFactory(): IdbFactoryLike {
  installIndexedDbClasses();
  return new fakeIndexedDb.IDBFactory() as unknown as IdbFactoryLike;
}

/** Defines the IndexedDB classes (IDBKeyRange, …) as globals where the runtime has none. */
function installIndexedDbClasses(): void {
  const global = globalThis as Record<string, unknown>;
  for (const [name, value] of Object.entries(fakeIndexedDb)) {
    if (name.startsWith("IDB") && global[name] === undefined) {
      Object.defineProperty(globalThis, name, { value, writable: true, configurable: true });
    }
  }
}

/**
 * The process-wide queue of `indexedDB` swaps, on a registered symbol so that other code doing the
 * same swap (a test's Element-like client) can join it: `globalThis[Symbol.for(...)]` holds a promise,
 * chain on it and store the new tail.
 */
export const INDEXED_DB_QUEUE = Symbol.for("openclaw.matrix.indexedDbQueue");

/** Runs `fn` with `globalThis.indexedDB` set to `factory`, one call at a time per process. */
export function withIndexedDb<T>(factory: IdbFactoryLike, fn: () => Promise<T>): Promise<T> {
  const holder = globalThis as unknown as Record<symbol, Promise<unknown> | undefined>;
  const queue = holder[INDEXED_DB_QUEUE] ?? Promise.resolve();
  const run = queue.then(async () => {
    const descriptor = Object.getOwnPropertyDescriptor(globalThis, "indexedDB");
    Object.defineProperty(globalThis, "indexedDB", { value: factory, writable: true, configurable: true });
    try {
      return await fn();
    } finally {
      if (descriptor) Object.defineProperty(globalThis, "indexedDB", descriptor);
      else delete (globalThis as Record<string, unknown>).indexedDB;
    }
  });
  holder[INDEXED_DB_QUEUE] = run.catch(() => undefined);
  return run;
}
