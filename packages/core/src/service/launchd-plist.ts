import path from "node:path";
import type { GatewayLaunch } from "./launch.js";

/** `ai.openclaw.gateway`, or `ai.openclaw.gateway.<profile>` for a `--profile`. */
export function launchdLabel(profile?: string): string {
  return profile === undefined ? "ai.openclaw.gateway" : `ai.openclaw.gateway.${profile}`;
}

/** `~/Library/LaunchAgents/<label>.plist`: where a user's launch agents live. */
export function launchdPlistPath(home: string, label: string): string {
  return path.join(home, "Library", "LaunchAgents", `${label}.plist`);
}

/**
 * The gateway's launchd agent: started at login (`RunAtLoad`), started again when it exits with a
 * failure (`KeepAlive.SuccessfulExit=false`), at most every 10 s (`ThrottleInterval`, launchd's
 * only backoff); its stdout/stderr go to `<stateDir>/logs/launchd.log` (the gateway's structured
 * log is `<stateDir>/logs/gateway.log`).
 */
export function renderLaunchdPlist(launch: GatewayLaunch, label: string): string {
  const env = Object.entries(launch.env).sort(([a], [b]) => a.localeCompare(b));
  const consoleLog = path.join(launch.logDir, "launchd.log");
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
    '<plist version="1.0">',
    "<dict>",
    "  <key>Label</key>",
    `  <string>${xml(label)}</string>`,
    "  <key>ProgramArguments</key>",
    "  <array>",
    ...[launch.program, ...launch.args].map((a) => `    <string>${xml(a)}</string>`),
    "  </array>",
    "  <key>WorkingDirectory</key>",
    `  <string>${xml(launch.stateDir)}</string>`,
    "  <key>EnvironmentVariables</key>",
    "  <dict>",
    ...env.flatMap(([k, v]) => [`    <key>${xml(k)}</key>`, `    <string>${xml(v)}</string>`]),
    "  </dict>",
    "  <key>RunAtLoad</key>",
    "  <true/>",
    "  <key>KeepAlive</key>",
    "  <dict>",
    "    <key>SuccessfulExit</key>",
    "    <false/>",
    "  </dict>",
    "  <key>ThrottleInterval</key>",
    "  <integer>10</integer>",
    "  <key>ProcessType</key>",
    "  <string>Background</string>",
    "  <key>StandardOutPath</key>",
    `  <string>${xml(consoleLog)}</string>`,
    "  <key>StandardErrorPath</key>",
    `  <string>${xml(consoleLog)}</string>`,
    "</dict>",
    "</plist>",
    "",
  ].join("\n");
}

function xml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}
