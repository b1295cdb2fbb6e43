// A small DOM -> Markdown-ish text renderer for readable page text: headings, paragraphs, lists,
// links with absolute URLs, code blocks and table rows survive; scripts, styles and markup do not.

/** The minimal DOM surface used (linkedom nodes satisfy it). */
export interface DomNode {
  nodeType: number;
  nodeName: string;
  textContent: string | null;
  childNodes: ArrayLike<DomNode>;
  getAttribute?(name: string): string | null;
}

const SKIP = new Set([
  "SCRIPT",
  "STYLE",
  "NOSCRIPT",
  "TEMPLATE",
  "SVG",
  "IFRAME",
  "HEAD",
  "CANVAS",
  "OBJECT",
  "BUTTON",
  "SELECT",
  "INPUT",
  "TEXTAREA",
]);
const BLOCK = new Set([
  "P",
  "DIV",
  "SECTION",
  "ARTICLE",
  "HEADER",
  "FOOTER",
  "MAIN",
  "ASIDE",
  "NAV",
  "BLOCKQUOTE",
  "FIGURE",
  "FIGCAPTION",
  "TABLE",
  "THEAD",
  "TBODY",
  "TFOOT",
  "UL",
  "OL",
  "DL",
  "DT",
  "DD",
  "FORM",
  "FIELDSET",
  "ADDRESS",
  "DETAILS",
  "SUMMARY",
  "BODY",
  "HTML",
]);

interface RenderState {
  baseUrl: string;
  listDepth: number;
}

function absolute(href: string, base: string): string | undefined {
  try {
    const url = new URL(href, base);
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : undefined;
  } catch {
    return undefined;
  }
}

function children(node: DomNode, state: RenderState): string {
  let out = "";
  for (let i = 0; i < node.childNodes.length; i++) out += render(node.childNodes[i]!, state);
  return out;
}

function render(node: DomNode, state: RenderState): string {
  if (node.nodeType === 3) return (node.textContent ?? "").replace(/\s+/g, " ");
  if (node.nodeType !== 1) return "";
  const tag = node.nodeName.toUpperCase();
  if (SKIP.has(tag)) return "";
  const heading = /^H([1-6])$/.exec(tag);
  if (heading) return `\n\n${"#".repeat(Number(heading[1]))} ${children(node, state).trim()}\n\n`;
  switch (tag) {
    case "BR":
      return "\n";
    case "HR":
      return "\n\n---\n\n";
    case "PRE":
      return `\n\n\`\`\`\n${(node.textContent ?? "").replace(/\n+$/, "")}\n\`\`\`\n\n`;
    case "CODE":
      return `\`${(node.textContent ?? "").trim()}\``;
    case "A": {
      const text = children(node, state).trim();
      const href = node.getAttribute?.("href");
      const url = href ? absolute(href, state.baseUrl) : undefined;
      return url && text && text !== url ? `[${text}](${url})` : text;
    }
    case "IMG": {
      const alt = node.getAttribute?.("alt")?.trim();
      return alt ? `[image: ${alt}]` : "";
    }
    case "LI": {
      const indent = "  ".repeat(Math.max(0, state.listDepth - 1));
      return `\n${indent}- ${children(node, state).trim()}`;
    }
    case "UL":
    case "OL": {
      state.listDepth++;
      const inner = children(node, state);
      state.listDepth--;
      return `\n${inner}\n`;
    }
    case "TR": {
      const cells: string[] = [];
      for (let i = 0; i < node.childNodes.length; i++) {
        const cell = node.childNodes[i]!;
        if (cell.nodeType === 1 && /^(TD|TH)$/i.test(cell.nodeName)) cells.push(render(cell, state).replace(/\s+/g, " ").trim());
      }
      return `\n| ${cells.join(" | ")} |`;
    }
    default:
      return BLOCK.has(tag) ? `\n\n${children(node, state)}\n\n` : children(node, state);
  }
}

/** Renders a DOM subtree as plain text with light Markdown; relative links resolve against `baseUrl`. */
export function htmlNodeToText(node: DomNode, baseUrl: string): string {
  const raw = render(node, { baseUrl, listDepth: 0 });
  const lines: string[] = [];
  let inFence = false;
  for (const line of raw.split("\n")) {
    if (line.startsWith("```")) inFence = !inFence;
    lines.push(inFence || line.startsWith("```") ? line : line.replace(/[ \t]+/g, " ").trim());
  }
  return lines
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
