// The contract between core's Anthropic provider and @openclaw/provider-anthropic, which carries
// the official SDK. Core loads that package on the first call to an "anthropic-messages" provider.
import { loadProviderPackage, type ProviderPackageRequest } from "./provider-package.js";

/** The package that provides {@link AnthropicMessagesClient}. */
export const ANTHROPIC_PROVIDER_PACKAGE = "@openclaw/provider-anthropic";
/** Its folder in this repository. */
export const ANTHROPIC_CHECKOUT_FOLDER = "packages/provider-anthropic";

export interface AnthropicClientOptions {
  apiKey: string;
  baseUrl: string;
  headers?: Record<string, string>;
  timeoutMs: number;
}

/** The raw stream events of a Messages call, as far as core reads them. */
export type AnthropicStreamEvent =
  | {
      type: "message_start";
      message: { usage: AnthropicUsage };
    }
  | {
      type: "content_block_start";
      index: number;
      content_block: { type: "text"; text: string } | { type: "tool_use"; id: string; name: string; input: unknown };
    }
  | {
      type: "content_block_delta";
      index: number;
      delta: { type: "text_delta"; text: string } | { type: "input_json_delta"; partial_json: string };
    }
  | { type: "content_block_stop"; index: number }
  | { type: "message_delta"; delta: { stop_reason?: string | null }; usage: Partial<AnthropicUsage> }
  | { type: "message_stop" };

export interface AnthropicUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}

export interface AnthropicMessagesClient {
  streamMessages(body: Record<string, unknown>, signal: AbortSignal): Promise<AsyncIterable<{ type: string }>>;
}

interface AnthropicProviderModule {
  createAnthropicMessagesClient(options: AnthropicClientOptions): AnthropicMessagesClient;
}

/** Loads @openclaw/provider-anthropic (a ProviderError naming the fix when missing) and makes a client. */
export async function createAnthropicClient(
  options: AnthropicClientOptions,
  request: Omit<ProviderPackageRequest, "packageName" | "api">,
): Promise<AnthropicMessagesClient> {
  const module = await loadProviderPackage<AnthropicProviderModule>({
    ...request,
    packageName: ANTHROPIC_PROVIDER_PACKAGE,
    api: "anthropic-messages",
    checkoutFolder: ANTHROPIC_CHECKOUT_FOLDER,
  });
  return module.createAnthropicMessagesClient(options);
}
