/**
 * The name of each variant (model) of an evaluation run, as every list, report and review names it:
 * "model (label)" when it has a label, and "#n" (its place, from 1) added to a name an earlier
 * variant of the run already has. Stored with each result, so answers are found by model across runs.
 */
export function variantKeys(variants: readonly { model: string; label?: string | null | undefined; cascade?: { model: string } | undefined }[]): string[] {
  // A cascade is named by both its models: "first → second".
  const keys = variants.map((v) => {
    const model = v.cascade ? `${v.model} → ${v.cascade.model}` : v.model;
    return v.label ? `${model} (${v.label})` : model;
  });
  return keys.map((k, i) => (keys.indexOf(k) === i ? k : `${k} #${i + 1}`));
}
