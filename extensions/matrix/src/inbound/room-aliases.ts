/**
 * Room aliases used as config keys (`groups."#ops:example.org"`, `streaming.rooms."#ops:…"`),
 * resolved to room ids through the homeserver's directory and cached, so an inbound message of
 * the room carries them (`ChatRef.aliases`) and core applies the alias-keyed entry. The session
 * resolves them when it connects and again each time the bot joins a room (an alias may have been
 * created or moved meanwhile).
 */
import type { PluginLogger } from "@openclaw/plugin-sdk";

/** Asks the homeserver which room an alias names (matrix-js-sdk's `getRoomIdForAlias`). */
export type ResolveAlias = (alias: string) => Promise<string>;

/** The aliases of `keys`: those spelled `#alias:server`. */
export function aliasKeysOf(keys: Iterable<string>): string[] {
  return [...new Set([...keys].map((key) => key.trim()).filter((key) => /^#[^:]+:.+$/.test(key)))];
}

/** The room ids of configured aliases, as last resolved. */
export class RoomAliasCache {
  private readonly roomOf = new Map<string, string>();
  private readonly unresolved = new Set<string>();
  private refreshing: Promise<void> | undefined;
  private again = false;

  constructor(
    private readonly aliases: readonly string[],
    private readonly resolve: ResolveAlias,
    private readonly log: Pick<PluginLogger, "info" | "warn">,
  ) {}

  /**
   * Resolves every alias again. Never rejects: an alias the directory does not know is logged
   * once (until it resolves) and its config entry applies to no room. Calls made while one runs
   * share it and start one more pass after it.
   */
  refresh(): Promise<void> {
    if (this.aliases.length === 0) return Promise.resolve();
    if (this.refreshing) {
      this.again = true;
      return this.refreshing;
    }
    this.refreshing = this.pass().finally(() => {
      this.refreshing = undefined;
      if (this.again) {
        this.again = false;
        void this.refresh();
      }
    });
    return this.refreshing;
  }

  private async pass(): Promise<void> {
    await Promise.all(
      this.aliases.map(async (alias) => {
        try {
          const roomId = await this.resolve(alias);
          if (this.roomOf.get(alias) !== roomId) this.log.info(`room alias ${alias} is ${roomId}`);
          this.roomOf.set(alias, roomId);
          this.unresolved.delete(alias);
        } catch (error) {
          if (!this.unresolved.has(alias)) {
            this.log.warn(
              `room alias ${alias} (a key of groups or streaming.rooms) does not resolve: ${(error as Error).message}; its settings apply to no room until it does (checked again when the bot joins a room).`,
            );
          }
          this.unresolved.add(alias);
          this.roomOf.delete(alias);
        }
      }),
    );
  }

  /** The configured aliases that name `roomId`, in config order. */
  aliasesOf(roomId: string): string[] {
    return this.aliases.filter((alias) => this.roomOf.get(alias) === roomId);
  }

  /** The room of an alias, when it resolved. */
  roomIdOf(alias: string): string | undefined {
    return this.roomOf.get(alias);
  }
}
