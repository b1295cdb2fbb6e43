/**
 * matrix-js-sdk 36.2.0 turns the Rust crypto's tracing on at debug level on every
 * `initRustCrypto`, which prints each crypto step to the console. Lower it to warnings on the
 * same wasm module instance matrix-js-sdk loaded (its Node ESM entry, `node.mjs`, resolved from
 * matrix-js-sdk's own folder). Set `MATRIX_SDK_DEBUG=1` to keep the debug output.
 */
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";

interface WasmTracing {
  Tracing: new (level: unknown) => { turnOn(): void };
  LoggerLevel: { Warn: unknown };
}

/** Returns false when the wasm module was not where expected (the tracing then stays as it is). */
export async function quietRustCryptoTracing(): Promise<boolean> {
  if (process.env.MATRIX_SDK_DEBUG) return false;
  try {
    const sdkRequire = createRequire(createRequire(import.meta.url).resolve("matrix-js-sdk"));
    const wasmDir = dirname(sdkRequire.resolve("@matrix-org/matrix-sdk-crypto-wasm"));
    const wasm = (await import(pathToFileURL(join(wasmDir, "node.mjs")).href)) as WasmTracing;
    new wasm.Tracing(wasm.LoggerLevel.Warn).turnOn();
    return true;
  } catch {
    return false;
  }
}
