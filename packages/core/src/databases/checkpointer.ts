// WAL checkpoints off the main thread. A WAL database copies its log back into the file every
// `wal_autocheckpoint` pages (1000 by default), in the commit that crosses the mark, and fsyncs
// both files there: a stall of milliseconds in the middle of a turn, on the main thread. A
// database registered here gets a second connection in one shared worker thread that runs a
// PASSIVE checkpoint (it never blocks the writer or readers) every `CHECKPOINT_INTERVAL_MS`; the
// main connection keeps checkpointing itself only as a fallback, past `FALLBACK_PAGES` pages.
import { createRequire } from "node:module";
import type { Worker } from "node:worker_threads";
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
/** Registered connections by file. */
const registered = new Map<string, Database.Database>();

function startWorker(): Worker {
  const sqlite = createRequire(import.meta.url).resolve("better-sqlite3");
  // Loaded here, not at import: commands that only read a database (doctor, status) never start it.
  const { Worker } = process.getBuiltinModule("node:worker_threads");
  const w = new Worker(WORKER_SOURCE, { eval: true, workerData: { sqlite, intervalMs: CHECKPOINT_INTERVAL_MS } });
  w.unref();
  const gone = () => {
    if (worker !== w) return;
    // Checkpoints go back to the main connections.
    worker = undefined;
    for (const db of registered.values()) if (db.open) db.pragma("wal_autocheckpoint = 1000");
  };
  w.on("error", gone);
  w.on("exit", gone);
  return w;
}

function hand(w: Worker, db: Database.Database, file: string): void {
  db.pragma(`wal_autocheckpoint = ${FALLBACK_PAGES}`);
  w.postMessage({ add: file });
}

/**
 * Checkpoints `db` (open in WAL mode) from the background worker: at once with `start` (default
 * true), else from when another database starts the worker (so a process that never writes much
 * starts no thread). `db.close()` first waits (at most 2 s) until the worker closed its own
 * connection, so the file has no other user once the close returns; the worker ends with the
 * last registered database.
 */
export function checkpointInBackground(db: Database.Database, options: { start?: boolean } = {}): void {
  const file = db.name;
  if (registered.has(file)) return;
  registered.set(file, db);
  if (worker) hand(worker, db, file);
  else if (options.start !== false) {
    worker = startWorker();
    for (const [f, d] of registered) if (d.open) hand(worker, d, f);
  }
  const close = db.close.bind(db);
  db.close = () => {
    release(file);
    return close();
  };
}

function release(file: string): void {
  if (!registered.delete(file)) return;
  const w = worker;
  if (!w) return;
  const ack = new Int32Array(new SharedArrayBuffer(4));
  w.postMessage({ remove: file, ack });
  Atomics.wait(ack, 0, 0, CLOSE_WAIT_MS);
  if (registered.size === 0) {
    worker = undefined;
    void w.terminate();
  }
}
