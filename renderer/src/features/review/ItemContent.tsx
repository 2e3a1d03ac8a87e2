/** A part of a state as the Decisions request gives it: text, or an image by URL. */
type Part = { type?: string; text?: string; image_url?: { url?: string } | string };

const imageUrl = (part: Part): string | null => {
  const url = typeof part.image_url === 'string' ? part.image_url : part.image_url?.url;
  // Only images carried in the item itself: the inspector fetches nothing from elsewhere.
  return typeof url === 'string' && url.startsWith('data:image/') ? url : null;
};

/** The item's first image carried in it (a data URL), for the box workbench; null when it has none. */
export function itemImage(state: unknown): string | null {
  if (!Array.isArray(state)) return null;
  for (const p of state as Part[]) {
    const url = p && typeof p === 'object' ? imageUrl(p) : null;
    if (url) return url;
  }
  return null;
}

/** What the item is about: its text, its images (data URLs; left to the box workbench when it draws on them), or its JSON laid out. */
export function ItemContent({ state, label, imagesOnWorkbench = false }: { state: unknown; label: string; imagesOnWorkbench?: boolean }) {
  if (typeof state === 'string')
    return (
      <div className="review-content review-text" aria-label={label} role="group">
        {state}
      </div>
    );
  const parts = Array.isArray(state) ? (state as Part[]) : [];
  const images = parts.flatMap((p) => {
    const url = p && typeof p === 'object' ? imageUrl(p) : null;
    return url ? [url] : [];
  });
  const texts = parts.flatMap((p) => (p && typeof p === 'object' && p.type === 'text' && typeof p.text === 'string' ? [p.text] : []));
  const plain = images.length + texts.length === parts.length && parts.length > 0;
  if (plain && imagesOnWorkbench && texts.length === 0) return <p className="small muted">The item is its image: it is on the workbench below.</p>;
  return (
    <div className="review-content" aria-label={label} role="group">
      {plain ? (
        <>
          {texts.map((t, i) => (
            <p key={i} className="review-text">
              {t}
            </p>
          ))}
          {(imagesOnWorkbench ? [] : images).map((url, i) => (
            <img key={i} className="review-image" src={url} alt={`Image ${i + 1} of the item`} />
          ))}
        </>
      ) : (
        <pre className="mono small review-json">{JSON.stringify(state, null, 2)}</pre>
      )}
    </div>
  );
}
