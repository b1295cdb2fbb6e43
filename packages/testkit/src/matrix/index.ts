/**
 * Matrix test infrastructure: a real Synapse (installed by scripts/install-synapse.sh) and an
 * Element-like human on matrix-js-sdk with Rust crypto. Needs the optional peers matrix-js-sdk
 * (36.2.0) and fake-indexeddb.
 */
export { startSynapse, type StartSynapseOptions, type Synapse, type SynapseUser } from "./synapse.js";
export {
  findSynapsePython,
  RELAXED_RATE_LIMITS,
  SYNAPSE_VERSION,
  synapseInstalled,
  synapseMissingMessage,
} from "./synapse-config.js";
export {
  createMatrixHuman,
  type CreateRoomOptions,
  type HumanMessage,
  type MatrixHuman,
  type MatrixHumanOptions,
  quietMatrixSdkLogs,
  type SendOptions,
} from "./human.js";
export { decryptAttachment, type EncryptedFile, encryptAttachment } from "./attachments.js";
export { startFakeHomeserver } from "./fake/index.js";
export type { FakeHomeserver, FakeHomeserverOptions, FakeMatrixRequest, FakeMatrixSent, RawEvent } from "./fake/index.js";
