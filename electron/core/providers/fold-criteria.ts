/**
 * A yes/no question's criteria folded into its instructions, in the words the AI SDK's providers use
 * (`@ai-sdk/openai` 4.0.118): where a shape has no criteria (OpenAI's predicate) or only both sides
 * (the spec's noul), what the caller said of either side still reaches the model.
 */
export function foldCriteria(instructions: unknown, yes: unknown, no: unknown): string {
  const text = (g: unknown): string => (typeof g === 'string' ? g : JSON.stringify(g));
  const lines = instructions === undefined || instructions === null || instructions === '' ? [] : [text(instructions)];
  if (yes !== undefined && yes !== null) lines.push(`Criteria for true:\n${text(yes)}`);
  if (no !== undefined && no !== null) lines.push(`Criteria for false:\n${text(no)}`);
  return lines.join('\n\n');
}
