// Reads QR codes back out of terminal output (a process's stdout, or a tmux pane captured with
// `capture-pane -e`): each run of half-block lines is turned into pixels by their colours and
// decoded with jsQR, as a phone camera would read the screen.
import jsQRModule from "jsqr";

// jsqr is CommonJS whose types declare an ES default export: take the function either way.
type JsQR = typeof jsQRModule.default;
const jsQR: JsQR = (jsQRModule as unknown as { default?: JsQR }).default ?? (jsQRModule as unknown as JsQR);

type Colour = "dark" | "light";
interface Cell {
  char: string;
  fg: Colour;
  bg: Colour;
}

const BLOCK_LINE = /^[ ▀▄█]+$/;

/**
 * Parses one line's SGR colours (30 black, 37 white; anything else counts as light). The colours
 * carry over from the line before (tmux does not repeat them at each line start).
 */
function parseLine(line: string, pen: { fg: Colour; bg: Colour }): Cell[] {
  const cells: Cell[] = [];
  let { fg, bg } = pen;
  for (let i = 0; i < line.length; i++) {
    if (line[i] === "\u001b" && line[i + 1] === "[") {
      const end = line.indexOf("m", i);
      for (const p of line
        .slice(i + 2, end)
        .split(";")
        .map(Number)) {
        if (p === 0) fg = bg = "light";
        else if (p >= 30 && p <= 39) fg = p === 30 ? "dark" : "light";
        else if (p >= 40 && p <= 49) bg = p === 40 ? "dark" : "light";
      }
      i = end;
      continue;
    }
    cells.push({ char: line[i]!, fg, bg });
  }
  pen.fg = fg;
  pen.bg = bg;
  return cells;
}

/** Two pixel rows (top and bottom half of each cell) per terminal line. */
function pixelRows(cells: Cell[]): [boolean[], boolean[]] {
  const top: boolean[] = [];
  const bottom: boolean[] = [];
  for (const c of cells) {
    const ink = c.fg === "dark";
    const paper = c.bg === "dark";
    top.push(c.char === "█" || c.char === "▀" ? ink : paper);
    bottom.push(c.char === "█" || c.char === "▄" ? ink : paper);
  }
  return [top, bottom];
}

function decode(rows: boolean[][]): string | undefined {
  const scale = 4;
  const margin = 4;
  const width = Math.max(...rows.map((r) => r.length));
  const w = (width + 2 * margin) * scale;
  const h = (rows.length + 2 * margin) * scale;
  const data = new Uint8ClampedArray(w * h * 4).fill(255);
  rows.forEach((row, y) =>
    row.forEach((dark, x) => {
      if (!dark) return;
      for (let dy = 0; dy < scale; dy++)
        for (let dx = 0; dx < scale; dx++) {
          const at = (((y + margin) * scale + dy) * w + (x + margin) * scale + dx) * 4;
          data[at] = data[at + 1] = data[at + 2] = 0;
        }
    }),
  );
  return jsQR(data, w, h)?.data;
}

/** Every QR code drawn in `text`, decoded, in order. */
export function decodeTerminalQrs(text: string): string[] {
  const found: string[] = [];
  let block: boolean[][] = [];
  const flush = () => {
    if (block.length >= 5) {
      const value = decode(block);
      if (value !== undefined) found.push(value);
    }
    block = [];
  };
  const pen: { fg: Colour; bg: Colour } = { fg: "light", bg: "light" };
  for (const line of text.split("\n")) {
    const cells = parseLine(line.replace(/\r$/, ""), pen);
    const plain = cells.map((c) => c.char).join("");
    if (plain.trim().length > 0 && BLOCK_LINE.test(plain)) block.push(...pixelRows(cells));
    else flush();
  }
  flush();
  return found;
}
