const NAMED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0" };

/**
 * Resolves the HTML character references a Markdown parser leaves in text: `&amp;`, `&lt;`,
 * `&gt;`, `&quot;`, `&apos;`, `&nbsp;` (any case), `&#39;` and `&#x1F600;`. Other names and
 * out-of-range numbers stay as written.
 */
export function decodeCharacterReferences(text: string): string {
  return text.replace(/&(#[xX][0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-zA-Z]{2,8});/g, (whole, body: string) => {
    if (body.startsWith("#")) {
      const code = body[1] === "x" || body[1] === "X" ? Number.parseInt(body.slice(2), 16) : Number.parseInt(body.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED[body.toLowerCase()] ?? whole;
  });
}
