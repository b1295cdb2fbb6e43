import { existsSync } from "node:fs";
import path from "node:path";

/**
 * Runs `git init -q` in `dir` unless it already has a `.git` entry. Resolves false when git is not
 * installed or fails (a workspace without version control still works). GIT_* variables of the
 * calling process are not passed on, so a surrounding repository is never touched.
 */
export async function gitInitIfAvailable(dir: string): Promise<boolean> {
  if (existsSync(path.join(dir, ".git"))) return false;
  // Imported here: node:child_process costs a few ms to load for every command that reaches the
  // workspace module, and only creating a workspace runs git.
  const { execFile } = await import("node:child_process");
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith("GIT_")) env[k] = v;
  return new Promise((resolve) => {
    execFile("git", ["init", "-q"], { cwd: dir, env, timeout: 30_000 }, (err) => resolve(!err));
  });
}
