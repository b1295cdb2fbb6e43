import { loopbackChannelConfig } from "@openclaw/testkit";
import { describe, expect, it } from "vitest";
import { createConfigRegistry } from "./registry.js";
import { validateConfig } from "./validate.js";

// A channel whose users are e-mail addresses; its ids rule says so.
const mail = {
  ...loopbackChannelConfig("mail"),
  ids: {
    prefixes: ["m"],
    checkSender: (id: string) =>
      id.includes("@") ? undefined : { message: `${JSON.stringify(id)} is not an address.`, fix: "write it as name@host." },
  },
};
const plain = loopbackChannelConfig("plain");

const problemsOf = (channels: Record<string, unknown>) => {
  const result = validateConfig({ channels }, createConfigRegistry([mail, plain]));
  return result.ok ? [] : result.problems.map((p) => `${p.path}: ${p.message}${p.fix ? ` Fix: ${p.fix}` : ""}`);
};

describe("sender-list entries that can never match", () => {
  it('asks the channel\'s checkSender about every list, without the prefix, and never about "*"', () => {
    expect(
      problemsOf({
        mail: {
          allowFrom: ["ada@example.org", "m:bob@example.org", "mail:carol", "*"],
          groupAllowFrom: ["dave"],
          groups: { g1: { allowFrom: [42] } },
          accounts: { work: { allowFrom: ["erin"] } },
        },
      }),
    ).toEqual([
      'channels.mail.allowFrom[2]: "carol" is not an address. Fix: write it as name@host.',
      'channels.mail.groupAllowFrom[0]: "dave" is not an address. Fix: write it as name@host.',
      'channels.mail.groups.g1.allowFrom[0]: "42" is not an address. Fix: write it as name@host.',
      'channels.mail.accounts.work.allowFrom[0]: "erin" is not an address. Fix: write it as name@host.',
    ]);
  });

  it("refuses fractions and bare prefixes on every channel; a channel without a rule accepts any other id", () => {
    expect(problemsOf({ plain: { allowFrom: ["anyone", 7, 12.5, "plain:", "  "] } })).toEqual([
      "channels.plain.allowFrom[2]: 12.5 can never match a sender: an id written as a number must be a whole number. Fix: write the sender's exact id (a whole number, or a string).",
      'channels.plain.allowFrom[3]: "plain:" names no sender (only blanks or a prefix). Fix: write the sender\'s id after the prefix, or remove the entry.',
      'channels.plain.allowFrom[4]: "  " names no sender (only blanks or a prefix). Fix: write the sender\'s id after the prefix, or remove the entry.',
    ]);
    expect(problemsOf({ plain: { allowFrom: ["anyone", 7, "plain:x"] } })).toEqual([]);
  });
});
