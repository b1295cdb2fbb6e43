/**
 * grammY, loaded with `require` rather than `import`: grammY and its dependencies are CommonJS,
 * and through the ESM loader Node detects the format of and scans for exports every one of their
 * files, which makes loading them about 5x slower (0.37 s instead of 0.08 s on a small machine).
 * The plugin imports grammY's values from here; the classes are the same ones `import "grammy"`
 * gives, so `instanceof` holds either way.
 */
import { createRequire } from "node:module";
import type * as Grammy from "grammy";

const grammy = createRequire(import.meta.url)("grammy") as typeof Grammy;

export const { Api, Bot, GrammyError, HttpError, InputFile } = grammy;
export type Api = Grammy.Api;
export type Bot = Grammy.Bot;
export type GrammyError = Grammy.GrammyError;
export type HttpError = Grammy.HttpError;
export type InputFile = Grammy.InputFile;
export type { Transformer } from "grammy";
