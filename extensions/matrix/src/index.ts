/**
 * @openclaw/matrix: the Matrix channel for OpenClaw, on matrix-js-sdk (with its Rust crypto for
 * end-to-end encryption). The default export is the `ChannelPlugin`; the named exports are the
 * pieces it is built from.
 */
import { createMatrixPlugin } from "./plugin.js";

export { createMatrixPlugin, type MatrixAccount, type MatrixPluginOptions } from "./plugin.js";
export {
  LIVE_MARKER,
  MATRIX_CAPABILITIES,
  MATRIX_MEDIA_MAX_MB,
  MATRIX_STREAMING_MODES,
  MATRIX_TEXT_LIMIT,
  matrixChannelConfig,
  matrixConfigSchema,
} from "./config.js";

/** The Matrix channel plugin with production settings. */
const matrixPlugin = createMatrixPlugin();
export default matrixPlugin;
