// Session store benchmark: transcript appends (batched and one-per-event durable) and tail reads,
// measured against a plain better-sqlite3 INSERT loop in the same run on the same disk.
// Usage: node bench/sessions-store.mjs [--events 100000] [--batch 100] [--durable 2000] [--dir /path]
// Needs the built core (`pnpm build`). Targets: >= 50k events/s batched; readTail(200) < 2 ms.
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";

const { values: args } = parseArgs({
  options: {
    events: { type: "string", default: "100000" },
    batch: { type: "string", default: "100" },
    durable: { type: "string", default: "2000" },
    reads: { type: "string", default: "500" },
    dir: { type: "string" },
  },
});
const EVENTS = Number(args.events);
const BATCH = Number(args.batch);
const DURABLE = Number(args.durable);
const READS = Number(args.reads);
const TARGET_BATCHED_EPS = 50_000;
const TARGET_TAIL_MS = 2;

const requireCore = createRequire(new URL("../packages/core/package.json", import.meta.url));
const Database = requireCore("better-sqlite3");
let sessions;
try {
  sessions = await import("../packages/core/dist/sessions/index.js");
} catch (err) {
  console.error("bench/sessions-store: build core first (pnpm build):", err.message);
  process.exit(1);
}

const root = mkdtempSync(path.join(args.dir ?? os.tmpdir(), "openclaw-bench-sessions-"));
const text = "The quick brown fox jumps over the lazy dog. ".repeat(6);
const makeEvent = (i) => ({
  type: "message",
  message: { role: i % 2 ? "assistant" : "user", content: [{ type: "text", text }], timestamp: 1_700_000_000_000 + i },
});
const payload = JSON.stringify({
  type: "message",
  id: "00000000-0000-0000-0000-000000000000",
  parentId: "x",
  timestamp: new Date().toISOString(),
  ...makeEvent(0),
});

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * p))];
};
const fmt = (n, d = 0) => n.toLocaleString("en-US", { maximumFractionDigits: d, minimumFractionDigits: d });

function openBaseline(name) {
  const db = new Database(path.join(root, name));
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)");
  return db;
}

let baseEps, baseDurableEps, baseTailMs;
// 1. Baseline: plain INSERT loop, one transaction per BATCH rows (same batching as the store).
const base = openBaseline("baseline.sqlite");
{
  const ins = base.prepare("INSERT INTO t (v) VALUES (?)");
  const many = base.transaction((n) => {
    for (let i = 0; i < n; i++) ins.run(payload);
  });
  many(1000); // warm-up
  base.exec("DELETE FROM t");
  const t0 = performance.now();
  for (let done = 0; done < EVENTS; done += BATCH) many(Math.min(BATCH, EVENTS - done));
  baseEps = EVENTS / ((performance.now() - t0) / 1000);
}
// 1b. Baseline durable: one INSERT per transaction with synchronous=FULL.
{
  base.pragma("synchronous = FULL");
  const ins = base.prepare("INSERT INTO t (v) VALUES (?)");
  const t0 = performance.now();
  for (let i = 0; i < DURABLE; i++) base.transaction(() => ins.run(payload))();
  baseDurableEps = DURABLE / ((performance.now() - t0) / 1000);
  base.pragma("synchronous = NORMAL");
}
// 1c. Baseline tail read: last 200 rows of the table, parsed.
{
  const tail = base.prepare("SELECT id, v FROM t ORDER BY id DESC LIMIT 200");
  const times = [];
  for (let i = 0; i < READS + 50; i++) {
    const t0 = performance.now();
    const rows = tail.all();
    rows.reverse().map((r) => JSON.parse(r.v));
    if (i >= 50) times.push(performance.now() - t0);
  }
  baseTailMs = median(times);
}
base.close();

// 2. Store: batched appends into one session until it holds EVENTS events.
const store = sessions.openAgentStore({ stateDir: root, agentId: "bench" });
const { sessionId } = store.getOrCreateSession("agent:bench:main");
{
  const warm = store.getOrCreateSession("agent:bench:warmup").sessionId;
  store.appendEvents(
    warm,
    Array.from({ length: 1000 }, (_, i) => makeEvent(i)),
  );
}
const batches = [];
for (let done = 0; done < EVENTS; done += BATCH) {
  batches.push(Array.from({ length: Math.min(BATCH, EVENTS - done) }, (_, i) => makeEvent(done + i)));
}
let t0 = performance.now();
for (const b of batches) store.appendEvents(sessionId, b);
const batchedEps = EVENTS / ((performance.now() - t0) / 1000);

// 3. Store: durable one-per-event appends (own session; fsync per commit).
const durableSession = store.getOrCreateSession("agent:bench:durable").sessionId;
t0 = performance.now();
for (let i = 0; i < DURABLE; i++) store.appendEvent(durableSession, makeEvent(i));
const durableEps = DURABLE / ((performance.now() - t0) / 1000);

// 4. Store: readTail(200) on the EVENTS-event session.
const tailTimes = [];
for (let i = 0; i < READS + 50; i++) {
  const s = performance.now();
  const tail = store.readTail(sessionId, 200);
  if (tail.length !== 200) throw new Error("tail read returned the wrong count");
  if (i >= 50) tailTimes.push(performance.now() - s);
}
const tailMs = median(tailTimes);
const tailP95 = pct(tailTimes, 0.95);
const stored = store.countEvents(sessionId);
store.close();
rmSync(root, { recursive: true, force: true });

const rows = [
  ["plain INSERT loop (baseline)", `${fmt(baseEps)} rows/s`, "1.00x", ""],
  [
    `store appendEvents, batch ${BATCH}`,
    `${fmt(batchedEps)} events/s`,
    `${fmt(batchedEps / baseEps, 2)}x`,
    batchedEps >= TARGET_BATCHED_EPS ? `PASS (>= ${fmt(TARGET_BATCHED_EPS)}/s)` : `FAIL (< ${fmt(TARGET_BATCHED_EPS)}/s)`,
  ],
  ["plain INSERT, 1 per txn, sync=FULL", `${fmt(baseDurableEps)} rows/s`, `${fmt(baseDurableEps / baseEps, 3)}x`, ""],
  [
    "store appendEvent (durable, sync=FULL)",
    `${fmt(durableEps)} events/s`,
    `${fmt(durableEps / baseEps, 3)}x`,
    `${fmt(durableEps / baseDurableEps, 2)}x of durable baseline`,
  ],
  ["plain SELECT last 200 + JSON.parse", `${fmt(baseTailMs, 3)} ms`, "1.00x", ""],
  [
    `store readTail(200) on ${fmt(stored)} events`,
    `${fmt(tailMs, 3)} ms (p95 ${fmt(tailP95, 3)})`,
    `${fmt(tailMs / baseTailMs, 2)}x`,
    tailMs < TARGET_TAIL_MS ? `PASS (< ${TARGET_TAIL_MS} ms)` : `FAIL (>= ${TARGET_TAIL_MS} ms)`,
  ],
];
const widths = [0, 1, 2, 3].map((i) => Math.max(...rows.map((r) => r[i].length)));
console.log(`sessions-store benchmark (node ${process.version}, ${os.cpus().length} cpus, dir ${args.dir ?? os.tmpdir()})`);
for (const r of rows)
  console.log(
    r
      .map((c, i) => c.padEnd(widths[i]))
      .join("  ")
      .trimEnd(),
  );
const pass = batchedEps >= TARGET_BATCHED_EPS && tailMs < TARGET_TAIL_MS;
console.log(pass ? "RESULT: PASS" : "RESULT: FAIL");
process.exitCode = pass ? 0 : 1;
