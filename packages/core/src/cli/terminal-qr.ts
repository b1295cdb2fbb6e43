import QRCode from "qrcode";

/**
 * Renders `data` as a QR code for a terminal: the `qrcode` library's compact renderer (two
 * modules per character cell with half blocks, black on an explicit white background, so it
 * scans on dark and light terminals alike; about 60 columns for a 200-character code).
 */
export function renderTerminalQr(data: string): Promise<string> {
  return QRCode.toString(data, { type: "terminal", small: true });
}
