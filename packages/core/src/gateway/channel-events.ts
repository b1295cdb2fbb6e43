import type { ChannelStatusReport } from "./types.js";

/** The parts of a report whose change is worth telling clients about (not every message's timestamps). */
function fingerprint(channels: ChannelStatusReport[]): string {
  return JSON.stringify(
    channels.map((c) => [
      c.channel,
      c.accounts.map((a) => [a.accountId, a.state, a.detail, a.identity, a.loginCommand, a.lastError, a.restarts, a.details, a.name]),
    ]),
  );
}

/**
 * Coalesces account changes into `channels.changed` events: `notify()` may be called on every
 * report update; once per tick the status is read and, when an account's state, detail,
 * identity, error or restarts differ from the last event, `emit` gets the whole status.
 */
export class ChannelChangeFeed {
  private last: string;
  private scheduled = false;

  constructor(
    private readonly read: () => ChannelStatusReport[],
    private readonly emit: (channels: ChannelStatusReport[]) => void,
  ) {
    this.last = fingerprint(read());
  }

  notify(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      const channels = this.read();
      const now = fingerprint(channels);
      if (now === this.last) return;
      this.last = now;
      this.emit(channels);
    });
  }
}
