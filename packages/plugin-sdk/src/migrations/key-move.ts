import { deletePath, formatPath, getPath, hasPath, isPlainObject, setPath } from "./object-path.js";
import type { LegacyKeyRule } from "./types.js";

/**
 * Declares a rule that moves one key to a new path (e.g. `session.idleMinutes` ->
 * `session.reset.idleMinutes`). An existing value at the destination wins and the old key is
 * removed. `check` may reject a legacy value, which is then reported and left in place.
 */
export function defineKeyMoveRule(options: {
  id: string;
  from: readonly string[];
  to: readonly string[];
  check?: (value: unknown) => string | undefined;
}): LegacyKeyRule {
  const from = formatPath(options.from);
  const to = formatPath(options.to);
  return {
    id: options.id,
    description: `Move ${from} to ${to}.`,
    detect(config) {
      return hasPath(config, options.from)
        ? [{ path: [...options.from], message: `${from} is retired; run \`openclaw doctor --fix\` to move it to ${to}.` }]
        : [];
    },
    apply(config) {
      if (!hasPath(config, options.from)) return { changes: [], problems: [] };
      const value = getPath(config, options.from);
      if (getPath(config, options.to) !== undefined) {
        deletePath(config, options.from);
        return { changes: [`${from} removed (${to} is already set)`], problems: [] };
      }
      const error = options.check?.(value);
      if (error) {
        return { changes: [], problems: [`${from} has the invalid value ${JSON.stringify(value)} (${error}); set ${to} yourself.`] };
      }
      const parentPath = options.to.slice(0, -1);
      const parent = getPath(config, parentPath);
      if (parent !== undefined && !isPlainObject(parent)) {
        return { changes: [], problems: [`${from} was not moved because ${formatPath(parentPath)} is not an object.`] };
      }
      setPath(config, options.to, value);
      deletePath(config, options.from);
      return { changes: [`${from} -> ${to}`], problems: [] };
    },
  };
}
