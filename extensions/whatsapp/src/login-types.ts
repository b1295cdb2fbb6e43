/**
 * The login contract (`ChannelPlugin.login` / `logout`) as the SDK defines it on the `wa-login`
 * branch, declared here until that SDK is released; the shapes are identical, so the plugin
 * switches to the SDK's types by changing this file's imports only.
 */
import type { AccountStatus, PluginLogger } from "@openclaw/plugin-sdk";

/** Everything `login` / `logout` get for one account. */
export interface ChannelLoginContext<Account> {
  accountId: string;
  /** The account's effective config (resolveAccount's result). */
  account: Account;
  /** The account's login-state folder, `<stateDir>/credentials/<channel>/<accountId>`, created 0700. */
  credentialsDir: string;
  log: PluginLogger;
  /** Fires when the user gives up (Ctrl-C) or the host's timeout passes. */
  signal: AbortSignal;
  /** How the user asked to link: a QR code to scan (default), or a pairing code for this phone number (E.164). */
  method: { kind: "qr" } | { kind: "pairing-code"; phoneNumber: string };
  /** Shows a QR code to scan: the host renders `data` in the terminal; called again each time it rotates. */
  showQr(data: string): void;
  /** Shows the code to type on the phone (pairing-code method). */
  showPairingCode(code: string): void;
}

/** What a successful login reports. */
export interface ChannelLoginResult {
  /** Who is linked now, e.g. "+15551234567". */
  identity: string;
}

/** `AccountStatus.state` including "needs-login" (added to the SDK on the `wa-login` branch). */
export type WhatsAppStatusUpdate = Omit<Partial<AccountStatus>, "state"> & { state?: AccountStatus["state"] | "needs-login" };

/** Reports a status that may say "needs-login" through a context typed with the current SDK. */
export function reportStatus(status: (update: Partial<AccountStatus>) => void, update: WhatsAppStatusUpdate): void {
  status(update as Partial<AccountStatus>);
}
