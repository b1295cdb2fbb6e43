import path from "node:path";
import type { HostResolver } from "../web/http-get.js";
import { BrowserSession, type IdleTimers, systemTimers } from "./session.js";
import type { BrowserSettings } from "./settings.js";

export interface BrowserManagerOptions {
  /** Idle-close timers (default real `setTimeout`, unref'd). */
  timers?: IdleTimers;
  /** Host name resolver for the private-network guard (default `dns.lookup`). */
  resolveHost?: HostResolver;
  /** Address classification for the guard; tests swap it. */
  classifyAddress?: (address: string) => string | undefined;
}

/** The profile folder of an agent's browser: `<stateDir>/agents/<agentId>/browser/profile`. */
export function browserProfileDir(stateDir: string, agentId: string): string {
  return path.join(stateDir, "agents", agentId, "browser", "profile");
}

/**
 * Owns one {@link BrowserSession} per agent. Sessions start on first use and close when idle;
 * {@link closeAll} closes every browser (call it when the gateway stops).
 */
export class BrowserManager {
  private readonly sessions = new Map<string, BrowserSession>();

  constructor(private readonly options: BrowserManagerOptions = {}) {}

  /**
   * The agent's session (created, not started, when missing). When `settings` differ from those
   * the session was made with (a config change), the old browser is closed first, so a stricter
   * `allowPrivateNetwork` or another executable applies from this call on.
   */
  async session(agentId: string, stateDir: string, settings: BrowserSettings): Promise<BrowserSession> {
    let session = this.sessions.get(agentId);
    if (session && !session.hasSettings(settings)) {
      this.sessions.delete(agentId);
      await session.close();
      session = undefined;
    }
    if (!session) {
      const created = new BrowserSession({
        profileDir: browserProfileDir(stateDir, agentId),
        settings,
        guard: {
          ...(this.options.resolveHost ? { resolveHost: this.options.resolveHost } : {}),
          ...(this.options.classifyAddress ? { classify: this.options.classifyAddress } : {}),
        },
        timers: this.options.timers ?? systemTimers,
        onClosed: () => {
          if (this.sessions.get(agentId) === created) this.sessions.delete(agentId);
        },
      });
      this.sessions.set(agentId, created);
      session = created;
    }
    return session;
  }

  /** Whether the agent's browser is running now. */
  isRunning(agentId: string): boolean {
    return this.sessions.get(agentId)?.running ?? false;
  }

  /** Closes every browser. */
  async closeAll(): Promise<void> {
    const sessions = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(sessions.map((s) => s.close()));
  }
}

let shared: BrowserManager | undefined;

/** The process-wide manager used when a caller passes none. */
export function sharedBrowserManager(): BrowserManager {
  shared ??= new BrowserManager();
  return shared;
}
