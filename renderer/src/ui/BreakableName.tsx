/** A model's name that may wrap after its provider ("sandbox/" then "skewed-small"), so several model columns fit a narrow table. */
export function BreakableName({ name }: { name: string }) {
  const slash = name.indexOf('/') + 1;
  return slash > 0 ? (
    <>
      {name.slice(0, slash)}
      <wbr />
      {name.slice(slash)}
    </>
  ) : (
    <>{name}</>
  );
}
