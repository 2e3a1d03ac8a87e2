const LIMIT = 160;

const isImage = (part: unknown) => typeof part === 'object' && part !== null && (part as { type?: unknown }).type === 'image_url';

/** A few words of an item's content, to tell it by: its text (the first 160 characters), its text parts, or "[image]". */
export function itemText(state: unknown): string {
  let text: string;
  if (typeof state === 'string') text = state;
  else if (Array.isArray(state))
    text = state
      .map((part) =>
        isImage(part)
          ? '[image]'
          : typeof part === 'string'
            ? part
            : typeof (part as { text?: unknown })?.text === 'string'
              ? (part as { text: string }).text
              : JSON.stringify(part),
      )
      .join(' ');
  else text = JSON.stringify(state);
  return text.length > LIMIT ? `${text.slice(0, LIMIT - 1)}…` : text;
}
