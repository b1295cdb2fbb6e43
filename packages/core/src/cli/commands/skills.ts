import type { Command } from "commander";
import type { SkillsOptions } from "../actions/skills.js";
import type { CliContext } from "../context.js";

/** The implementation (skill discovery, YAML front matter, the config module), imported on use. */
const actions = () => import("../actions/skills.js");

/** `openclaw skills list|check`. */
export function registerSkills(program: Command, ctx: CliContext): void {
  const skills = program.command("skills").description("list the agent's skills and explain which ones it may use");

  skills
    .command("list")
    .description("list every skill found, with its source and whether it is eligible")
    .option("--agent <id>", "use this agent's workspace and skill allowlist (default: the default agent)")
    .option("--eligible", "show eligible skills only")
    .option("--json", "print JSON instead of a table")
    .action(async (opts: SkillsOptions) => (await actions()).listSkills(ctx, opts));

  skills
    .command("check")
    .description("explain, for each skill, why it is or is not eligible")
    .option("--agent <id>", "use this agent's workspace and skill allowlist (default: the default agent)")
    .option("--json", "print JSON instead of text")
    .action(async (opts: SkillsOptions) => (await actions()).checkSkills(ctx, opts));
}
