// EXCLUSIONS: generated forms floe gets wrong today, kept out of the default run; each names the bug it hides.

export interface Exclusion {
  /** The generator's name for the form (see query-gen.ts: `ctx.allows(form)`). */
  readonly form: string;
  /** What floe does wrong, with a minimal repro (one line). */
  readonly bug: string;
}

/**
 * The default run leaves these forms out (or spells them another way); `FLOE_GEN_EXCLUDE=none` brings them all
 * back, `FLOE_GEN_EXCLUDE=a,b` keeps out only those. Remove an entry when its bug is fixed.
 */
export const EXCLUSIONS: readonly Exclusion[] = [];

/** The excluded form names for this run, from $FLOE_GEN_EXCLUDE (default: every entry of EXCLUSIONS). */
export function excludedForms(env: string | undefined = process.env.FLOE_GEN_EXCLUDE): ReadonlySet<string> {
  if (env === undefined || env === '') return new Set(EXCLUSIONS.map((e) => e.form));
  if (env === 'none') return new Set();
  return new Set(env.split(',').map((s) => s.trim()));
}
