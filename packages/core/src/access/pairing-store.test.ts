import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { UserError } from "../config/index.js";
import { openStateDb, type StateDb } from "../state/index.js";
import {
  createPairingStore,
  PAIRING_CODE_ALPHABET,
  PAIRING_CODE_TTL_MS,
  PAIRING_MAX_PENDING,
  type IssueResult,
  type PairingStore,
} from "./index.js";

let stateDir: string;
let db: StateDb;
let store: PairingStore;
const T0 = Date.UTC(2026, 0, 1);

beforeEach(() => {
  stateDir = mkdtempSync(path.join(tmpdir(), "openclaw-pairing-"));
  db = openStateDb(stateDir);
  store = createPairingStore(db);
});
afterEach(() => {
  db.close();
  rmSync(stateDir, { recursive: true, force: true });
});

function issued(result: IssueResult): Extract<IssueResult, { ok: true }> {
  if (!result.ok) throw new Error(`expected a code, got ${result.reason}`);
  return result;
}

function errorOf(fn: () => unknown): Error {
  try {
    fn();
  } catch (err) {
    return err as Error;
  }
  throw new Error("expected a throw");
}

const request = (senderId: string, extra: { accountId?: string; channel?: string; senderName?: string } = {}) => ({
  channel: extra.channel ?? "telegram",
  accountId: extra.accountId ?? "default",
  senderId,
  ...(extra.senderName ? { senderName: extra.senderName } : {}),
});

describe("PairingStore.issue", () => {
  it("issues 8-character codes from the unambiguous alphabet, valid for one hour", () => {
    const seen = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const r = issued(store.issue(request(`u${i}`), T0));
      expect(r.code).toMatch(new RegExp(`^[${PAIRING_CODE_ALPHABET}]{8}$`));
      expect(r.code).not.toMatch(/[01OI]/);
      expect(r.isNew).toBe(true);
      expect(r.expiresAt).toBe(T0 + PAIRING_CODE_TTL_MS);
      seen.add(r.code);
    }
    expect(seen.size).toBe(3);
  });

  it("gives the same sender the same code within the hour, and a new one after it expires", () => {
    const first = issued(store.issue(request("42"), T0));
    const again = issued(store.issue(request("telegram:42"), T0 + 59 * 60_000));
    expect(again).toEqual({ ok: true, code: first.code, isNew: false, expiresAt: first.expiresAt });
    const later = issued(store.issue(request("42"), T0 + PAIRING_CODE_TTL_MS));
    expect(later.isNew).toBe(true);
    expect(later.expiresAt).toBe(T0 + 2 * PAIRING_CODE_TTL_MS);
  });

  it("keeps at most 3 pending codes per channel account; expired ones free a slot", () => {
    for (let i = 0; i < PAIRING_MAX_PENDING; i++) issued(store.issue(request(`u${i}`), T0));
    expect(store.issue(request("fourth"), T0 + 1)).toEqual({ ok: false, reason: "too many pending", pending: 3 });
    // Another account and another channel have their own limits.
    issued(store.issue(request("fourth", { accountId: "work" }), T0));
    issued(store.issue(request("fourth", { channel: "matrix" }), T0));
    // An existing holder still gets their code while the account is full.
    expect(store.issue(request("u0"), T0 + 2).ok).toBe(true);
    expect(issued(store.issue(request("fourth"), T0 + PAIRING_CODE_TTL_MS)).isNew).toBe(true);
  });
});

describe("PairingStore.approve / isApproved / revoke / list", () => {
  it("approves a code (any case, spaces and dashes ignored) and returns the sender", () => {
    const { code } = issued(store.issue(request("42", { senderName: "Alice" }), T0));
    expect(store.isApproved("telegram", "default", "42")).toBe(false);
    const typed = `${code.slice(0, 4).toLowerCase()}-${code.slice(4)}`;
    const approved = store.approve("Telegram", typed, { now: T0 + 1000 });
    expect(approved).toEqual({
      channel: "telegram",
      accountId: "default",
      senderId: "42",
      senderName: "Alice",
      approvedAt: T0 + 1000,
      code,
    });
    expect(store.isApproved("telegram", "default", "telegram:42")).toBe(true);
    expect(store.isApproved("telegram", "other", "42")).toBe(false);
    // The code is used up.
    expect(errorOf(() => store.approve("telegram", code, { now: T0 + 2000 }))).toBeInstanceOf(UserError);
    expect(store.list({ now: T0 + 2000 }).pending).toEqual([]);
  });

  it("explains unknown, expired, wrong-channel and wrong-account codes", () => {
    const unknown = errorOf(() => store.approve("telegram", "ABCDEFGH", { now: T0 }));
    expect(unknown).toBeInstanceOf(UserError);
    expect(unknown.message).toMatch(/No pending pairing code ABCDEFGH on channel "telegram".*openclaw pairing list/s);

    const { code } = issued(store.issue(request("42", { senderName: "Alice" }), T0));
    expect(errorOf(() => store.approve("matrix", code, { now: T0 })).message).toContain(`openclaw pairing approve telegram ${code}`);
    expect(errorOf(() => store.approve("telegram", code, { accountId: "work", now: T0 })).message).toContain(`issued by account "default"`);
    const expired = errorOf(() => store.approve("telegram", code, { now: T0 + PAIRING_CODE_TTL_MS }));
    expect(expired).toBeInstanceOf(UserError);
    expect(expired.message).toContain("expired at 2026-01-01T01:00:00.000Z");
    expect(expired.message).toContain("Alice (42)");
    // The expired code was deleted, and the sender is not approved.
    expect(errorOf(() => store.approve("telegram", code, { now: T0 })).message).toContain("No pending pairing code");
    expect(store.isApproved("telegram", "default", "42")).toBe(false);
  });

  it("lists pending codes with the time left and approved senders, optionally per channel", () => {
    const a = issued(store.issue(request("1"), T0));
    issued(store.issue(request("@b:hs", { channel: "matrix" }), T0));
    const c = issued(store.issue(request("3"), T0));
    store.approve("telegram", c.code, { now: T0 + 10 });
    const all = store.list({ now: T0 + 60_000 });
    expect(all.pending.map((p) => [p.channel, p.senderId, p.remainingMs])).toEqual([
      ["matrix", "@b:hs", PAIRING_CODE_TTL_MS - 60_000],
      ["telegram", "1", PAIRING_CODE_TTL_MS - 60_000],
    ]);
    expect(all.pending[1]?.code).toBe(a.code);
    expect(all.approved.map((s) => s.senderId)).toEqual(["3"]);
    const matrix = store.list({ channel: "matrix", now: T0 });
    expect(matrix.pending).toHaveLength(1);
    expect(matrix.approved).toEqual([]);
    expect(store.list({ now: T0 + PAIRING_CODE_TTL_MS }).pending).toEqual([]);
  });

  it("revokes an approved sender on every account or on one", () => {
    for (const accountId of ["default", "work"]) {
      const { code } = issued(store.issue(request("42", { accountId }), T0));
      store.approve("telegram", code, { now: T0 });
    }
    expect(store.revoke("telegram", "telegram:42", { accountId: "work" }).map((s) => s.accountId)).toEqual(["work"]);
    expect(store.isApproved("telegram", "work", "42")).toBe(false);
    expect(store.isApproved("telegram", "default", "42")).toBe(true);
    expect(store.revoke("telegram", "42").map((s) => s.accountId)).toEqual(["default"]);
    expect(store.revoke("telegram", "42")).toEqual([]);
  });

  it("keeps a sender id as the channel spells it, and matches it without case", () => {
    const openid = "E4A0C3F1B2D34A5B8C9D0E1F2A3B4C5D";
    const { code } = issued(store.issue(request(openid, { channel: "qqbot" }), T0));
    expect(issued(store.issue(request(openid.toLowerCase(), { channel: "qqbot" }), T0)).code).toBe(code);
    expect(store.list({ now: T0 }).pending.map((p) => p.senderId)).toEqual([openid]);
    expect(store.approve("qqbot", code, { now: T0 }).senderId).toBe(openid);
    expect(store.isApproved("qqbot", "default", openid.toLowerCase())).toBe(true);
    expect(store.revoke("qqbot", `qqbot:${openid.toLowerCase()}`).map((s) => s.senderId)).toEqual([openid]);
    expect(store.isApproved("qqbot", "default", openid)).toBe(false);
  });

  it("sees approvals written by another connection without reopening", () => {
    const { code } = issued(store.issue(request("42"), T0));
    const other = openStateDb(stateDir);
    try {
      createPairingStore(other).approve("telegram", code, { now: T0 });
    } finally {
      other.close();
    }
    expect(store.isApproved("telegram", "default", "42")).toBe(true);
  });
});
