import type { FakeSearchDoc } from "./types.js";

export const DEFAULT_DOCS: readonly FakeSearchDoc[] = [
  {
    title: "Sea otter - Wikipedia",
    url: "https://en.wikipedia.org/wiki/Sea_otter",
    snippet: "The sea otter is a marine mammal native to the coasts of the northern and eastern North Pacific Ocean.",
    language: "en",
  },
  {
    title: "Why do otters hold hands?",
    url: "https://www.example.org/otters-hold-hands",
    snippet: "Sea otters hold hands while they sleep so that they do not drift apart.",
    country: "US",
    language: "en",
  },
  {
    title: "Otters in British rivers",
    url: "https://www.example.co.uk/river-otters",
    snippet: "The Eurasian otter has returned to every county in England.",
    country: "GB",
    language: "en",
  },
  {
    title: "Fischotter – Steckbrief",
    url: "https://www.example.de/fischotter",
    snippet: "Der Fischotter (otter) lebt an Flüssen und Seen in ganz Deutschland.",
    country: "DE",
    language: "de",
  },
  {
    title: "Otter cams: live streams",
    url: "https://www.example.com/otter-cams",
    snippet: "Watch otters live from aquariums around the world.",
  },
];

export interface CorpusQuery {
  q: string;
  country?: string | undefined;
  language?: string | undefined;
}

/** Pages sharing a word with the query, best match first, filtered by country and language. */
export function searchCorpus(docs: readonly FakeSearchDoc[], query: CorpusQuery): FakeSearchDoc[] {
  const words = query.q
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 1);
  const country = query.country?.toUpperCase();
  const language = query.language?.toLowerCase().split(/[-_]/)[0];
  return docs
    .filter((d) => !country || country === "ALL" || !d.country || d.country.toUpperCase() === country)
    .filter((d) => !language || language === "all" || !d.language || d.language === language)
    .map((d) => {
      const text = `${d.title} ${d.snippet}`.toLowerCase();
      return { d, score: words.filter((w) => text.includes(w)).length };
    })
    .filter((m) => m.score > 0)
    .sort((a, b) => b.score - a.score)
    .map((m) => m.d);
}

/** Wraps query words in `<strong>` as Brave does in its descriptions. */
export function highlight(text: string, q: string): string {
  const words = q.split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 1);
  if (words.length === 0) return text;
  const re = new RegExp(`(${words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})`, "giu");
  return text.replace(re, "<strong>$1</strong>");
}
