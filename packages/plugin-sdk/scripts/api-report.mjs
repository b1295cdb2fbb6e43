// Writes (or checks) the API reports of every entry point of @openclaw/plugin-sdk from the built
// declarations in dist/: etc/plugin-sdk.api.md (the contract), etc/plugin-sdk-config.api.md
// (`/config`) and etc/plugin-sdk-testing.api.md (`/testing`).
//   node scripts/api-report.mjs          update the reports (run `pnpm build` first)
//   node scripts/api-report.mjs --check  exit 1 when a report differs from the declarations
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Extractor, ExtractorConfig } from "@microsoft/api-extractor";

const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Entry points with their declarations (relative to dist) and report names. */
export const ENTRY_POINTS = [
  { entry: "index.d.ts", report: "plugin-sdk" },
  { entry: "config/index.d.ts", report: "plugin-sdk-config" },
  { entry: "testing/index.d.ts", report: "plugin-sdk-testing" },
];

/**
 * Runs API Extractor for one entry point. `dist` is the folder of declarations (default the
 * package's dist); `tempFolder` receives the report it generated. Returns whether the checked-in
 * report differs and the problems API Extractor reported.
 */
export function extract({ entry, report }, { dist = path.join(packageDir, "dist"), localBuild, tempFolder }) {
  const configFile = ExtractorConfig.loadFile(path.join(packageDir, "api-extractor.json"));
  configFile.mainEntryPointFilePath = path.join(dist, entry);
  configFile.apiReport = { ...configFile.apiReport, reportFileName: report, ...(tempFolder ? { reportTempFolder: tempFolder } : {}) };
  const config = ExtractorConfig.prepare({
    configObject: configFile,
    configObjectFullPath: path.join(packageDir, "api-extractor.json"),
    packageJsonFullPath: path.join(packageDir, "package.json"),
  });
  const problems = [];
  const result = Extractor.invoke(config, {
    localBuild,
    messageCallback: (message) => {
      if (
        (message.logLevel === "error" || message.logLevel === "warning") &&
        message.messageId !== "console-api-report-changed" &&
        message.messageId !== "console-api-report-created"
      ) {
        problems.push(message.formatMessageWithLocation(packageDir));
      }
      message.handled = true;
    },
  });
  return { changed: result.apiReportChanged, problems };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const check = process.argv.includes("--check");
  let failed = false;
  for (const point of ENTRY_POINTS) {
    const { changed, problems } = extract(point, { localBuild: !check });
    for (const p of problems) console.error(p);
    if (problems.length > 0 || (check && changed)) failed = true;
    console.log(`${point.report}.api.md: ${changed ? (check ? "differs" : "updated") : "unchanged"}`);
  }
  process.exit(failed ? 1 : 0);
}
