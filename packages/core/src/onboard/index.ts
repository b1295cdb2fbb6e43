// Public surface of onboarding: provider presets and checks, the channel catalogue and checks,
// and the plan (config patch and secret files) computed from the answers.
export {
  PROVIDER_PRESETS,
  providerPreset,
  checkProvider,
  modelsUrl,
  type ProviderPreset,
  type ProviderCheckInput,
  type ProviderCheckResult,
} from "./providers.js";
export {
  listChannelChoices,
  credentialFields,
  loadChannelPlugin,
  checkChannelAccount,
  type ChannelChoice,
  type CredentialField,
} from "./channels.js";
export {
  planOnboarding,
  mergePlan,
  channelEntry,
  secretFilePath,
  type OnboardAnswers,
  type OnboardPlan,
  type ProviderAnswer,
  type ChannelAnswer,
  type SecretStorage,
} from "./plan.js";
