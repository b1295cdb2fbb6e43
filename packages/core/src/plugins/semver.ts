// semver is loaded only when a plugin candidate exists, so `openclaw config validate` with no
// plugin installed never pays for it. Only the four functions used are imported.
interface SemverFns {
  validRange(range: string): string | null;
  satisfies(version: string, range: string, options: { includePrerelease: boolean }): boolean;
  gtr(version: string, range: string): boolean;
  ltr(version: string, range: string): boolean;
}

let loaded: Promise<SemverFns> | undefined;

export function loadSemver(): Promise<SemverFns> {
  loaded ??= Promise.all([
    import("semver/ranges/valid.js"),
    import("semver/functions/satisfies.js"),
    import("semver/ranges/gtr.js"),
    import("semver/ranges/ltr.js"),
  ]).then(([valid, satisfies, gtr, ltr]) => ({
    validRange: (range) => valid.default(range),
    satisfies: (version, range, options) => satisfies.default(version, range, options),
    gtr: (version, range) => gtr.default(version, range),
    ltr: (version, range) => ltr.default(version, range),
  }));
  return loaded;
}

/** Result of checking a plugin's SDK range against the host's version. */
export interface SdkCompatibility {
  compatible: boolean;
  /** `"plugin-too-old"`: the host is newer than the range; `"host-too-old"`: older. */
  mismatch?: "plugin-too-old" | "host-too-old" | "other";
}

/** Whether `range` includes `hostVersion` (prereleases count); assumes a valid range. */
export async function checkSdkRange(range: string, hostVersion: string): Promise<SdkCompatibility> {
  const semver = await loadSemver();
  if (semver.satisfies(hostVersion, range, { includePrerelease: true })) return { compatible: true };
  if (semver.gtr(hostVersion, range)) return { compatible: false, mismatch: "plugin-too-old" };
  if (semver.ltr(hostVersion, range)) return { compatible: false, mismatch: "host-too-old" };
  return { compatible: false, mismatch: "other" };
}
