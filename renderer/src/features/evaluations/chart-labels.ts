/**
 * Labels of points drawn at the same place: the first of them says every model there, the others
 * say nothing, so names are not printed over each other. "The same place" is the same value to
 * three decimals and the same cost to three significant digits (what the tooltip shows). Pure.
 */
export function sharedLabels(points: readonly { model: string; cost: number; value: number }[]): string[] {
  const at = (p: { cost: number; value: number }) => `${p.cost.toPrecision(3)} ${p.value.toFixed(3)}`;
  const short = (model: string) => model.split('/').pop()!;
  return points.map((p, i) => {
    const first = points.findIndex((q) => at(q) === at(p));
    if (first !== i) return '';
    return points
      .filter((q) => at(q) === at(p))
      .map((q) => short(q.model))
      .join(', ');
  });
}
