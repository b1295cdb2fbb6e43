// Public surface of the access concern: the inbound gate (dmPolicy / allowFrom / pairing codes,
// groupPolicy / groupAllowFrom / requireMention), the outbound policy the `message` tool applies,
// the pairing store on the shared state database, and per-channel id normalization.
// Other folders import from here only.
export {
  decideAccess,
  idsOf,
  pairingReplyText,
  type AccessAccount,
  type AccessDecision,
  type AllowReason,
  type DropReason,
} from "./decide.js";
export { checkOutboundAccess, type OutboundAccess } from "./outbound.js";
export {
  resolveAccessConfig,
  resolveGroupSettings,
  accountChannelConfig,
  DM_POLICIES,
  GROUP_POLICIES,
  type DmPolicy,
  type GroupPolicy,
  type GroupAccessSettings,
  type AccessConfigView,
  type AccessConfigInput,
  type ResolvedAccessConfig,
  type EffectiveGroupSettings,
} from "./config.js";
export {
  PairingStore,
  createPairingStore,
  PAIRING_CODE_TTL_MS,
  PAIRING_MAX_PENDING,
  type PairingGate,
  type PairingRequest,
  type IssueResult,
  type PendingPairing,
  type ApprovedSender,
} from "./pairing-store.js";
export { generatePairingCode, normalizePairingCode, PAIRING_CODE_ALPHABET, PAIRING_CODE_LENGTH } from "./codes.js";
export {
  normalizeSenderId,
  normalizeChatId,
  normalizeSenderList,
  listAllowsSender,
  type ChannelIds,
} from "./ids.js";
