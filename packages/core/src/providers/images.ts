// Images in tool results: which models accept them, shared by both request builders.
import type { ProviderModelInfo } from "./config-view.js";
import type { ChatMessage, ImagePart } from "./types.js";

/**
 * True when `models.providers.<id>.models[]` lists `model` with `"image"` in its `input`.
 * A model missing from the list, or without `input`, is text only (the default).
 */
export function acceptsImages(models: readonly ProviderModelInfo[], model: string): boolean {
  return models.find((m) => m.id === model)?.input?.includes("image") === true;
}

/** The images of a tool message to send, or none when the model is text only. */
export function toolImages(message: Extract<ChatMessage, { role: "tool" }>, vision: boolean): ImagePart[] {
  return vision ? (message.images ?? []) : [];
}

/** `data:<mime>;base64,<data>`, the URL form OpenAI-compatible APIs take for inline images. */
export function dataUrl(image: ImagePart): string {
  return `data:${image.mimeType};base64,${image.data}`;
}
