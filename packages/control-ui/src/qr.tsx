// A QR code drawn as inline SVG (no canvas, no data: URL, no style attribute), black on white
// whatever the page's colour scheme, with the quiet zone phones need. The encoder is
// loaded on demand so it costs nothing until a channel actually needs a scan.
import { useEffect, useState } from "preact/hooks";

/** The SVG path of `text` as a QR code: one `h1v1h-1z` square per dark module, plus the side length. */
export async function qrPath(text: string): Promise<{ size: number; d: string }> {
  const { default: qrcode } = await import("qrcode-generator");
  const qr = qrcode(0, "M");
  qr.addData(text);
  qr.make();
  const size = qr.getModuleCount();
  let d = "";
  for (let row = 0; row < size; row += 1) for (let col = 0; col < size; col += 1) if (qr.isDark(row, col)) d += `M${col} ${row}h1v1h-1z`;
  return { size, d };
}

export function QrCode(props: { data: string; label: string }) {
  const [shape, setShape] = useState<{ size: number; d: string } | undefined>();
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    let live = true;
    qrPath(props.data).then(
      (s) => live && setShape(s),
      (err: Error) => live && setError(err.message),
    );
    return () => {
      live = false;
    };
  }, [props.data]);
  if (error) return <p class="error">Cannot draw the QR code: {error}</p>;
  if (!shape) return <p class="muted">Drawing the QR code…</p>;
  const quiet = 4;
  const box = shape.size + quiet * 2;
  return (
    <svg
      class="qr"
      role="img"
      aria-label={props.label}
      viewBox={`${-quiet} ${-quiet} ${box} ${box}`}
      shape-rendering="crispEdges"
      data-qr={props.data}
    >
      <rect fill="#fff" x={-quiet} y={-quiet} width={box} height={box} />
      <path fill="#000" d={shape.d} />
    </svg>
  );
}
