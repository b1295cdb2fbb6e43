// Public surface of the inbox concern: inbound channel messages recorded in the state database
// before they are acknowledged, and handled again after a restart until they are answered.
export { Inbox, MAX_INBOX_ATTEMPTS, type InboxLedger, type InboxOptions, type InboxReplayDeps, type InterruptedDelivery } from "./inbox.js";
export { InboxStore, type InboxRow, type InboxState, type ReplyMessage } from "./store.js";
export { InboxTurn, attemptReplyKey, inboxKeyOf, replyKeyOf, type InboxTurnOptions, type InboxVerdict } from "./turn.js";
export { planSessionReplay, type SessionReplayPlan } from "./plan.js";
export { replyOutbound, type ReplyJournal, type ReplyOutbound } from "./reply-outbound.js";
export { gaveUpNotice } from "./notices.js";
