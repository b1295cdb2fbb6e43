import { randomBytes } from "node:crypto";
import type { FakeQQMessage, FakeQQStream } from "./types.js";

/** Where a message lives: `c2c:<openid>`, `group:<group_openid>`, `channel:<channel_id>` or `dm:<guild_id>`. */
export type TargetKey = `${"c2c" | "group" | "channel" | "dm"}:${string}`;

/** A file the files endpoint took, reachable by its file_info. */
export interface StoredFile {
  target: TargetKey;
  fileType: number;
  fileName?: string;
  bytes: number;
}

/** Ids shaped like the platform's (opaque strings). */
export function newId(prefix = "ROBOT1.0_"): string {
  return `${prefix}${randomBytes(12).toString("base64url")}`;
}

/** What the people sent, what the bot sent back, and the per-msg_id reply bookkeeping. */
export class QQStore {
  private readonly sent = new Map<TargetKey, FakeQQMessage[]>();
  private readonly inbound = new Map<string, TargetKey>();
  private readonly passive = new Map<string, number>();
  private readonly seqsUsed = new Set<string>();
  private readonly typing = new Map<string, number>();
  private readonly streamList = new Map<string, FakeQQStream[]>();
  private readonly streamById = new Map<string, { openid: string; stream: FakeQQStream }>();
  private readonly files = new Map<string, StoredFile>();

  constructor(readonly passiveReplyLimit: number) {}

  /** Records an inbound user message so passive replies to it can be checked. */
  addInbound(id: string, target: TargetKey): void {
    this.inbound.set(id, target);
  }

  /** The conversation an inbound msg_id belongs to. */
  inboundTarget(msgId: string): TargetKey | undefined {
    return this.inbound.get(msgId);
  }

  /**
   * Checks a passive reply and, when `commit`, spends it. Returns the refusal kind or undefined.
   * Order: unknown msg_id, duplicate (msg_id, msg_seq), then the per-msg_id limit.
   */
  takePassive(target: TargetKey, msgId: string, msgSeq: number, commit = true): "badMsgId" | "duplicate" | "replyLimit" | undefined {
    if (this.inbound.get(msgId) !== target) return "badMsgId";
    const key = `${msgId}\u0000${msgSeq}`;
    if (this.seqsUsed.has(key)) return "duplicate";
    if ((this.passive.get(msgId) ?? 0) >= this.passiveReplyLimit) return "replyLimit";
    if (commit) {
      this.seqsUsed.add(key);
      this.passive.set(msgId, (this.passive.get(msgId) ?? 0) + 1);
    }
    return undefined;
  }

  passiveUsed(msgId: string): number {
    return this.passive.get(msgId) ?? 0;
  }

  addSent(target: TargetKey, message: FakeQQMessage): void {
    const list = this.sent.get(target) ?? [];
    list.push(message);
    this.sent.set(target, list);
  }

  sentTo(target: TargetKey): FakeQQMessage[] {
    return structuredClone(this.sent.get(target) ?? []);
  }

  addTyping(openid: string): void {
    this.typing.set(openid, (this.typing.get(openid) ?? 0) + 1);
  }

  typingCount(openid: string): number {
    return this.typing.get(openid) ?? 0;
  }

  addFile(fileInfo: string, file: StoredFile): void {
    this.files.set(fileInfo, file);
  }

  file(fileInfo: string): StoredFile | undefined {
    return this.files.get(fileInfo);
  }

  addStream(openid: string, stream: FakeQQStream): void {
    const list = this.streamList.get(openid) ?? [];
    list.push(stream);
    this.streamList.set(openid, list);
    this.streamById.set(stream.streamMsgId, { openid, stream });
  }

  stream(streamMsgId: string): { openid: string; stream: FakeQQStream } | undefined {
    return this.streamById.get(streamMsgId);
  }

  streamsOf(openid: string): FakeQQStream[] {
    return structuredClone(this.streamList.get(openid) ?? []);
  }
}
