/**
 * `session.identityLinks`: canonical name -> the peer ids that are the same person, each either
 * raw (`"123"`) or channel-scoped (`"<channel>:123"`, `"<channel>:@u:hs"`).
 */
export type IdentityLinks = Record<string, readonly string[]>;

/**
 * Maps a DM peer to its canonical name when `links` lists it, comparing case-insensitively
 * against both the raw peer id and `<channel>:<peer>`. Returns the peer unchanged when no link
 * matches, when the peer is empty, or when the canonical name is blank.
 */
export function resolveLinkedPeerId(links: IdentityLinks | undefined, channel: string | undefined, peerId: string): string {
  if (!links || peerId === "") return peerId;
  const raw = peerId.trim().toLowerCase();
  const scoped = channel ? `${channel.trim().toLowerCase()}:${raw}` : undefined;
  for (const [canonical, ids] of Object.entries(links)) {
    const name = canonical.trim().toLowerCase();
    if (name === "" || !Array.isArray(ids)) continue;
    for (const candidate of ids) {
      if (typeof candidate !== "string") continue;
      const c = candidate.trim().toLowerCase();
      if (c === raw || (scoped !== undefined && c === scoped)) return name;
    }
  }
  return peerId;
}
