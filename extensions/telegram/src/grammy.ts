/**
 * The grammY values the plugin uses, in one place. The published package bundles grammY with the
 * plugin (scripts/bundle-extension.mjs), so loading it costs one file, not grammY's CommonJS tree
 * through Node's ES-module loader.
 */
export { Api, Bot, GrammyError, HttpError, InputFile } from "grammy";
export type { Transformer } from "grammy";
