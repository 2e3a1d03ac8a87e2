/**
 * Puts the schema steps of every domain's file in version order, for both backends' runners
 * (sqlite/migrations/index.ts, postgres/migrations/index.ts). Refuses, naming the files, when two
 * steps claim one version or a version has no step: each backend's versions run 1, 2, 3... with none
 * left out, as the databases out there have counted them.
 */

/** One released schema step: the SQL that brings a database from version - 1 to version. */
export interface MigrationStep {
  readonly version: number;
  readonly sql: string;
}

/**
 * Every step's SQL, the step of version v at index v - 1. `domains` maps a domain's file (as named in
 * the errors, without `.ts`) to its steps; `backend` names the backend in the errors.
 */
export function inVersionOrder(backend: string, domains: Readonly<Record<string, readonly MigrationStep[]>>): string[] {
  const byVersion = new Map<number, { domain: string; sql: string }>();
  for (const [domain, steps] of Object.entries(domains)) {
    for (const step of steps) {
      if (!Number.isInteger(step.version) || step.version < 1)
        throw new Error(`${backend} schema: a step in ${domain}.ts has version ${step.version}; versions are whole numbers from 1.`);
      const other = byVersion.get(step.version);
      if (other)
        throw new Error(
          `${backend} schema: version ${step.version} is claimed twice, by a step in ${other.domain}.ts and by a step in ${domain}.ts. A released step keeps its version; give the new one the next free version.`,
        );
      byVersion.set(step.version, { domain, sql: step.sql });
    }
  }
  const latest = Math.max(0, ...byVersion.keys());
  const ordered: string[] = [];
  for (let version = 1; version <= latest; version += 1) {
    const step = byVersion.get(version);
    if (!step) {
      const before = byVersion.get(version - 1);
      let after = version + 1;
      while (!byVersion.has(after)) after += 1;
      const around = [before ? `version ${version - 1} is in ${before.domain}.ts` : '', `version ${after} in ${byVersion.get(after)!.domain}.ts`]
        .filter(Boolean)
        .join(', ');
      throw new Error(
        `${backend} schema: no step has version ${version} (${around}). Versions run 1, 2, 3... without a gap: a step was left out of its file or numbered wrong.`,
      );
    }
    ordered.push(step.sql);
  }
  return ordered;
}
