import { stat } from "node:fs/promises";
import path from "node:path";
import { expandUserPath, UserError } from "../config/index.js";
import { type FirstPartyChannel, FIRST_PARTY_CHANNELS, firstPartyChannel } from "./first-party.js";

/** What `openclaw plugins install <spec>` installs from. */
export type InstallSource =
  | { kind: "folder"; dir: string; firstParty?: FirstPartyChannel }
  | { kind: "tarball"; file: string }
  | { kind: "registry"; spec: string; name: string | undefined };

const SCOPE = "@openclaw/";

function looksLikeTarball(spec: string): boolean {
  return /\.(tgz|tar\.gz|tar)$/i.test(spec) && !/^[a-z][a-z0-9+.-]*:\/\//i.test(spec);
}

function looksLikePath(spec: string): boolean {
  return /^(\.{1,2}([/\\]|$)|[/\\]|~([/\\]|$)|file:|[a-zA-Z]:[/\\])/.test(spec);
}

/** The package name of a registry spec (`name`, `name@range`, `@scope/name@tag`). */
function registryName(spec: string): string | undefined {
  return /^(@[^/@\s]+\/[^@\s]+|[^@/\s][^@/\s]*)(?:@.*)?$/.exec(spec)?.[1];
}

async function isFile(p: string): Promise<boolean> {
  try {
    return (await stat(p)).isFile();
  } catch {
    return false;
  }
}

/** A first-party channel's folder in the checkout core belongs to; a UserError saying how to get it when missing. */
async function firstPartyFolder(channel: FirstPartyChannel, checkoutRoot: string): Promise<string> {
  const dir = path.join(checkoutRoot, ...channel.folder.split("/"));
  if (await isFile(path.join(dir, "package.json"))) return dir;
  const isCheckout = await isFile(path.join(checkoutRoot, "pnpm-workspace.yaml"));
  const why = isCheckout
    ? `${dir} does not exist: this checkout (${checkoutRoot}) does not contain the ${channel.id} channel yet. Update it (\`git pull\`) and build it (\`bash scripts/bootstrap.sh\`), then run this command again.`
    : `this OpenClaw does not run from a checkout of the OpenClaw repository (looked for ${dir}). Clone the repository, build it (\`bash scripts/bootstrap.sh\`), and install the channel from the clone: \`openclaw plugins install <clone>/${channel.folder}\`.`;
  throw new UserError(
    `"${channel.id}" is OpenClaw's own ${channel.id} channel (${channel.packageName}); it is installed from the folder ${channel.folder} of the OpenClaw checkout, never from the npm registry. But ${why} A packed tarball of it works too (\`openclaw plugins install ./<name>-<version>.tgz\`).`,
  );
}

function refuseOpenclawScope(spec: string, name: string | undefined): never {
  const short = name?.startsWith(SCOPE) ? firstPartyChannel(name.slice(SCOPE.length)) : undefined;
  const ours = short
    ? `To install OpenClaw's own ${short.id} channel, run \`openclaw plugins install ${short.id}\` (from this checkout's ${short.folder}).`
    : `OpenClaw's own channels are installed by short name (${FIRST_PARTY_CHANNELS.map((c) => c.id).join(", ")}), e.g. \`openclaw plugins install ${FIRST_PARTY_CHANNELS[0]?.id ?? "<id>"}\`.`;
  throw new UserError(
    `Refusing to install ${spec} from the npm registry: the @openclaw scope there belongs to another project, whose packages are built for a different host and do not work with this OpenClaw. ${ours} Other plugins install from a folder or a .tgz tarball (\`openclaw plugins install ./openclaw-chatterbox-1.0.0.tgz\`), or by an npm name outside the @openclaw scope.`,
  );
}

/**
 * Decides what `spec` means, in this order:
 * - a first-party channel id (see `FIRST_PARTY_CHANNELS`) is that channel's folder in `checkoutRoot` (a
 *   UserError saying how to get it when the folder is missing);
 * - a path ending in `.tgz`/`.tar.gz`/`.tar` is a tarball; a path (`./x`, `/x`, `~/x`, `file:x`)
 *   is a plugin folder (relative to `cwd`);
 * - anything else is a registry spec, refused when it names the `@openclaw` scope.
 */
export async function resolveInstallSource(spec: string, options: { cwd: string; checkoutRoot: string }): Promise<InstallSource> {
  const firstParty = firstPartyChannel(spec);
  if (firstParty) return { kind: "folder", dir: await firstPartyFolder(firstParty, options.checkoutRoot), firstParty };
  const local = path.resolve(options.cwd, expandUserPath(spec.replace(/^file:/, "")));
  if (looksLikeTarball(spec)) {
    if (!(await isFile(local)))
      throw new UserError(`${local} does not exist; point \`openclaw plugins install\` at a plugin's .tgz tarball.`);
    return { kind: "tarball", file: local };
  }
  if (looksLikePath(spec)) {
    if (!(await isFile(path.join(local, "package.json")))) {
      throw new UserError(
        `${local} has no package.json; point \`openclaw plugins install\` at a plugin package folder, a .tgz tarball, or a first-party channel's short name (${FIRST_PARTY_CHANNELS.map((c) => c.id).join(", ")}).`,
      );
    }
    return { kind: "folder", dir: local };
  }
  const name = registryName(spec);
  if (name?.startsWith(SCOPE) || /(^|[/:])@openclaw\//.test(spec)) refuseOpenclawScope(spec, name);
  return { kind: "registry", spec, name };
}
