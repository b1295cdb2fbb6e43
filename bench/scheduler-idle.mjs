// The idle cost of the heartbeat scheduler: two gateways side by side in one run, the same config
// (one agent, a model that is never called, no channels, no cron jobs) except that one has the
// heartbeat switched on with a long interval (24 h, so no turn runs). After both are listening and
// have settled, CPU time (utime + stime from /proc/<pid>/stat) and RSS (VmRSS, sampled each second)
// are measured over the same window; the script prints both and their ratio (on / off).
// Needs the built packages (`pnpm build`). Usage: node bench/scheduler-idle.mjs [--seconds 60] [--settle 5]
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const { values: args } = parseArgs({
  options: { seconds: { type: "string", default: "60" }, settle: { type: "string", default: "5" } },
});
const SECONDS = Number(args.seconds);
const SETTLE_S = Number(args.settle);
const CLI = fileURLToPath(new URL("../packages/core/dist/cli/main.js", import.meta.url));
const TICKS_PER_S = Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout.trim()) || 100;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** utime + stime of a process, in ms. */
function cpuMs(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) / TICKS_PER_S) * 1000;
}
const rssKiB = (pid) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);

function envFor(home) {
  const env = { ...process.env, HOME: home };
  for (const k of Object.keys(env)) if (k.startsWith("OPENCLAW_")) delete env[k];
  return env;
}

/** Writes a config and starts `openclaw gateway --port 0`; resolves once it listens. */
function startGateway(heartbeat) {
  const home = mkdtempSync(path.join(tmpdir(), `openclaw-sched-idle-${heartbeat ? "on" : "off"}-`));
  mkdirSync(path.join(home, ".openclaw"));
  const config = {
    agents: {
      defaults: {
        model: "local/llama",
        skipBootstrap: true,
        userTimezone: "UTC",
        ...(heartbeat ? { heartbeat: { every: "24h", target: "last", activeHours: { start: "07:00", end: "23:00" } } } : {}),
      },
    },
    models: { providers: { local: { baseUrl: "http://127.0.0.1:9/v1", apiKey: "sk-unused", models: [{ id: "llama" }] } } },
  };
  writeFileSync(path.join(home, ".openclaw", "openclaw.json"), JSON.stringify(config));
  const child = spawn(process.execPath, [CLI, "gateway", "--port", "0"], {
    env: envFor(home),
    cwd: home,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let log = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the gateway did not start:\n${log}`)), 60_000);
    child.stderr.setEncoding("utf8").on("data", (d) => {
      log += d;
      if (/listening on ws:\/\//.test(log)) {
        clearTimeout(timer);
        resolve({ child, home, log: () => log });
      }
    });
    child.on("exit", (code) => reject(new Error(`the gateway exited with ${code}:\n${log}`)));
  });
}

/** What `openclaw heartbeat status --json` says (proves the scheduler is on). */
function heartbeatStatus(home) {
  const r = spawnSync(process.execPath, [CLI, "heartbeat", "status", "--json"], { env: envFor(home), cwd: home, encoding: "utf8" });
  return r.status === 0 ? JSON.parse(r.stdout) : r.stderr.trim();
}

const gateways = await Promise.all([startGateway(false), startGateway(true)]);
try {
  const [off, on] = gateways;
  console.log(`Both gateways listen (pids ${off.child.pid} off, ${on.child.pid} on); settling ${SETTLE_S} s.`);
  await sleep(SETTLE_S * 1000);
  const cpu0 = gateways.map((g) => cpuMs(g.child.pid));
  const rss = gateways.map(() => []);
  for (let s = 0; s < SECONDS; s++) {
    await sleep(1000);
    gateways.forEach((g, i) => rss[i].push(rssKiB(g.child.pid)));
  }
  const cpu = gateways.map((g, i) => cpuMs(g.child.pid) - cpu0[i]);
  const meanMb = rss.map((xs) => xs.reduce((a, b) => a + b, 0) / xs.length / 1024);
  const lastMb = rss.map((xs) => xs[xs.length - 1] / 1024);

  const row = (label, i) =>
    `${label.padEnd(14)} RSS mean ${meanMb[i].toFixed(1).padStart(6)} MB, end ${lastMb[i].toFixed(1).padStart(6)} MB; CPU ${cpu[i].toFixed(0).padStart(5)} ms over ${SECONDS} s (${((cpu[i] / (SECONDS * 1000)) * 100).toFixed(3)} % of a core)`;
  console.log(row("heartbeat off", 0));
  console.log(row("heartbeat on", 1));
  console.log(
    `ratio on/off:  RSS mean ${(meanMb[1] / meanMb[0]).toFixed(3)}, CPU ${cpu[0] > 0 ? (cpu[1] / cpu[0]).toFixed(2) : "n/a"} (added: ${(meanMb[1] - meanMb[0]).toFixed(1)} MB, ${(cpu[1] - cpu[0]).toFixed(0)} ms CPU per ${SECONDS} s; clock tick ${1000 / TICKS_PER_S} ms)`,
  );
  const status = heartbeatStatus(on.home);
  const entry = Array.isArray(status) ? status[0] : undefined;
  console.log(
    entry
      ? `scheduler on: agent ${entry.agentId} every ${entry.every}, next run in ${((entry.nextRunAt - Date.now()) / 3_600_000).toFixed(1)} h, never ran: ${entry.lastRunAt === null}`
      : `heartbeat status of the "on" gateway: ${JSON.stringify(status)}`,
  );
} finally {
  for (const g of gateways) {
    g.child.kill("SIGTERM");
    await new Promise((r) => (g.child.exitCode !== null ? r() : g.child.once("exit", r)));
    rmSync(g.home, { recursive: true, force: true });
  }
}
