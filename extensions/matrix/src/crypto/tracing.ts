/**
 * matrix-js-sdk 36.2.0 turns the Rust crypto's tracing on at debug level on every
 * `initRustCrypto`, which prints each crypto step to the console. Lower it to warnings on the
 * same WebAssembly package instance the SDK runs on (`rustCryptoWasm`, from the channel's one
 * door to the SDK). Set `MATRIX_SDK_DEBUG=1` to keep the debug output.
 */
import { rustCryptoWasm } from "../matrix-sdk.js";

/** Returns false when the package could not be loaded (the tracing then stays as it is). */
export async function quietRustCryptoTracing(): Promise<boolean> {
  if (process.env.MATRIX_SDK_DEBUG) return false;
  try {
    const wasm = await rustCryptoWasm();
    new wasm.Tracing(wasm.LoggerLevel.Warn).turnOn();
    return true;
  } catch {
    return false;
  }
}
