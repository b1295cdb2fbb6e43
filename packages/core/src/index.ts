export { resolvePaths, UserError, type OpenClawPaths } from "./config/paths.js";
