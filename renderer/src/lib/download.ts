/** Offers text as a file download. */
export function download(name: string, text: string, type = 'application/json'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}

/** A name made safe for a file name (runs of other characters as one dash, none at either end), or `fallback` when nothing is left. */
export const safeStem = (name: string, fallback: string): string =>
  name
    .trim()
    .replace(/[^\w.-]+/g, '-')
    .replace(/^-+|-+$/g, '') || fallback;

export const fileName = (name: string, extension: string): string => `${safeStem(name, 'verdict')}.${extension}`;
