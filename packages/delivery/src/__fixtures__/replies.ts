// Reply texts and a streaming driver for preview tests.
import type { PreviewController } from "../preview-controller.js";
import type { FakeClock } from "./fake-clock.js";

const WORDS = ["delivery", "preview", "budget", "the", "a", "message", "chat", "edit", "token", "final", "reply", "quota"];

/** A deterministic prose reply of about `length` characters: sentences in paragraphs. */
export function prose(length: number, seed = 1): string {
  let state = seed;
  const next = (n: number): number => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state % n;
  };
  let text = "";
  while (text.length < length) {
    const words = Array.from({ length: 4 + next(10) }, () => WORDS[next(WORDS.length)]!);
    text += `${words.join(" ")}.`;
    text += next(5) === 0 ? "\n\n" : " ";
  }
  return text.slice(0, length).trimEnd();
}

/** Feeds `text` to `preview.update` in slices of `chunk` characters every `everyMs` simulated ms. */
export async function stream(clock: FakeClock, preview: PreviewController, text: string, chunk = 50, everyMs = 50): Promise<void> {
  for (let end = chunk; end < text.length + chunk; end += chunk) {
    preview.update(text.slice(0, Math.min(end, text.length)));
    await clock.advance(everyMs);
  }
}
