import { describe, expect, it } from "vitest";
import { readHeartbeatReply } from "./heartbeat-ack.js";

describe("readHeartbeatReply", () => {
  it("drops the token alone, with markup or punctuation", () => {
    for (const reply of ["HEARTBEAT_OK", "  HEARTBEAT_OK\n", "**HEARTBEAT_OK**", "`HEARTBEAT_OK`.", "HEARTBEAT_OK!"]) {
      expect(readHeartbeatReply(reply, 300), reply).toEqual({ deliver: false, text: "" });
    }
  });

  it("drops the token at the start or end with at most ackMaxChars of other text", () => {
    expect(readHeartbeatReply("HEARTBEAT_OK nothing new", 300)).toEqual({ deliver: false, text: "nothing new" });
    expect(readHeartbeatReply("All quiet today.\n\nHEARTBEAT_OK", 300)).toEqual({ deliver: false, text: "All quiet today." });
    expect(readHeartbeatReply("HEARTBEAT_OK 12345", 5)).toEqual({ deliver: false, text: "12345" });
  });

  it("delivers the rest, without the token, past ackMaxChars", () => {
    expect(readHeartbeatReply("HEARTBEAT_OK 123456", 5)).toEqual({ deliver: true, text: "123456" });
    expect(readHeartbeatReply("Your train leaves at 9.\nHEARTBEAT_OK", 10)).toEqual({ deliver: true, text: "Your train leaves at 9." });
  });

  it("keeps a token in the middle as text and delivers replies without it", () => {
    const middle = "I saw HEARTBEAT_OK in the logs, odd.";
    expect(readHeartbeatReply(middle, 300)).toEqual({ deliver: true, text: middle });
    expect(readHeartbeatReply("Water the plants.", 300)).toEqual({ deliver: true, text: "Water the plants." });
    expect(readHeartbeatReply("   ", 300)).toEqual({ deliver: false, text: "" });
  });
});
