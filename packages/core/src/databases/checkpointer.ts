// WAL checkpoints off the main thread. A WAL database copies its log back into the file every
// `wal_autocheckpoint` pages (1000 by default), in the commit that crosses the mark, and fsyncs
// both files there: a stall of milliseconds in the middle of a turn, on the main thread. A
// database registered here gets a second connection in one shared worker thread that runs a
// PASSIVE checkpoint (it never blocks the writer or readers) every `CHECKPOINT_INTERVAL_MS`; the
// main connection keeps checkpointing itself only as a fallback, past `FALLBACK_PAGES` pages.
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import type Database from "better-sqlite3";

/** How often the worker checkpoints each registered database. */
export const CHECKPOINT_INTERVAL_MS = 250;
/** The main connection's own `wal_autocheckpoint` while the worker runs (about 40 MB of WAL). */
export const FALLBACK_PAGES = 10_000;
/** Longest a close waits for the worker to let go of the file. */
const CLOSE_WAIT_MS = 2000;

// CommonJS, run with `eval`: no file of its own to locate next to a bundle.
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.sqlite);
const open = new Map();
const checkpoint = () => {
  for (const db of open.values()) {
    try { db.pragma("wal_checkpoint(PASSIVE)"); } catch {}
  }
};
parentPort.on("message", (m) => {
  if (m.add !== undefined && !open.has(m.add)) {
    try { open.set(m.add, new Database(m.add, { fileMustExist: true, timeout: 0 })); } catch {}
  }
  if (m.remove !== undefined) {
    try { open.get(m.remove)?.close(); } catch {}
    open.delete(m.remove);
    Atomics.store(m.ack, 0, 1);
    Atomics.notify(m.ack, 0);
  }
});
setInterval(checkpoint, workerData.intervalMs);
`;

let worker: Worker | undefined;
const registered = new Set<string>();

function startWorker(): Worker {
  const sqlite = createRequire(import.meta.url).resolve("better-sqlite3");
  const w = new Worker(WORKER_SOURCE, { eval: true, workerData: { sqlite, intervalMs: CHECKPOINT_INTERVAL_MS } });
  w.unref();
  w.on("error", () => {
    // Checkpoints fall back to the main connections (FALLBACK_PAGES).
    if (worker === w) worker = undefined;
  });
  w.on("exit", () => {
    if (worker === w) worker = undefined;
  });
  return w;
}

/**
 * Checkpoints `file` (open in WAL mode on `db`) from the background worker from now on, and
 * returns the function to call right before `db` closes: it waits (at most 2 s) until the worker
 * closed its own connection, so the file has no other user when the caller's close returns.
 */
export function checkpointInBackground(db: Database.Database, file: string): () => void {
  worker ??= startWorker();
  const w = worker;
  db.pragma(`wal_autocheckpoint = ${FALLBACK_PAGES}`);
  registered.add(file);
  w.postMessage({ add: file });
  let done = false;
  return () => {
    if (done) return;
    done = true;
    registered.delete(file);
    if (worker !== w) return;
    const ack = new Int32Array(new SharedArrayBuffer(4));
    w.postMessage({ remove: file, ack });
    Atomics.wait(ack, 0, 0, CLOSE_WAIT_MS);
    if (registered.size === 0) {
      worker = undefined;
      void w.terminate();
    }
  };
}
