import { describe, expect, it } from "vitest";
import { formatChannelsStatus } from "./channels.js";

const NOW = Date.UTC(2026, 0, 1, 12);

describe("openclaw channels status (text)", () => {
  it("prints each account's details as key: value lines under it, before what is wrong", () => {
    const lines = formatChannelsStatus(
      {
        channels: [
          {
            channel: "matrix",
            label: "Matrix",
            accounts: [
              {
                channel: "matrix",
                accountId: "default",
                state: "connected",
                identity: "@claw:example.org",
                details: { device: "ABCDEFGHIJ", encryption: "on", verified: "yes" },
                restarts: 0,
                lastInboundAt: NOW - 12_000,
              },
              { channel: "matrix", accountId: "work", state: "reconnecting", detail: "sync failed; retrying", restarts: 2 },
            ],
          },
        ],
      },
      NOW,
    );
    expect(lines).toEqual([
      "Matrix (matrix)",
      "  default: connected as @claw:example.org; restarts 0; last in 12s ago; last out never",
      "    device: ABCDEFGHIJ",
      "    encryption: on",
      "    verified: yes",
      "  work: reconnecting; restarts 2; last in never; last out never",
      "    sync failed; retrying",
    ]);
  });

  it("says how to add a channel when none is configured", () => {
    expect(formatChannelsStatus({ channels: [] })).toEqual([
      "No channels are configured. Add one under channels.<id> in the config and restart the gateway.",
    ]);
  });
});
