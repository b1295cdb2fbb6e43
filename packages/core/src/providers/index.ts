// Public surface of the providers concern: the provider contract, the OpenAI-compatible provider
// (on fetch) and the Anthropic provider (its SDK in @openclaw/provider-anthropic, loaded on first
// use), error classification, model-ref resolution and fallback. Other folders import from here only.
export {
  ProviderError,
  type ChatMessage,
  type ImagePart,
  type ToolCall,
  type ToolSchema,
  type ModelRequest,
  type ModelStreamEvent,
  type ModelProvider,
  type ProviderApi,
  type ProviderErrorKind,
  type ProviderErrorInit,
} from "./types.js";
export type { ModelsConfigView, ProviderConfigInput, ProviderModelInfo, ModelSelectionInput } from "./config-view.js";
export {
  BUILTIN_PROVIDERS,
  CLOUD_TIMEOUT_MS,
  LOCAL_TIMEOUT_MS,
  PLACEHOLDER_API_KEY,
  isLocalBaseUrl,
  isProviderInPlay,
  listProviderIds,
  listProviderConfigs,
  resolveProviderConfig,
  type BuiltinProvider,
  type ProviderBuildOptions,
  type ResolvedProviderConfig,
} from "./registry.js";
export {
  failureCategory,
  toProviderError,
  parseRetryAfter,
  looksLikeContextOverflow,
  missingApiKeyError,
  type ErrorContext,
  type FailureCategory,
} from "./errors.js";
export { createOpenAICompletionsProvider } from "./openai-completions.js";
export { createAnthropicMessagesProvider, ANTHROPIC_DEFAULT_MAX_TOKENS } from "./anthropic-messages.js";
export { ANTHROPIC_PROVIDER_PACKAGE } from "./anthropic-client.js";
export { providerInstallCommand, providerPackageMessage, isProviderPackageInstalled } from "./provider-package.js";
export { missingProviderPackages, PROVIDER_PACKAGES, type MissingProviderPackage } from "./packages-in-use.js";
export { createProvider, createProviderFactory, type ProviderFactoryOptions } from "./factory.js";
export {
  parseModelRef,
  resolveModelRef,
  resolveModelSelection,
  defaultProviderId,
  noModelConfiguredMessage,
  type ParsedModelRef,
  type ResolvedModelRef,
  type ResolveModelOptions,
  type ModelCandidate,
} from "./model-ref.js";
export {
  streamWithFallback,
  isFallbackWorthy,
  type FallbackStreamEvent,
  type ModelSelectedEvent,
  type FallbackInfo,
  type StreamWithFallbackOptions,
} from "./fallback.js";
