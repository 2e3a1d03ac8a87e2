import { useState, type DragEvent } from 'react';
import { readDataUrl } from '../../lib/read-file';
import { newKey, type ImageDraft, type SetDraft } from './draft';

export async function imagesFrom(files: FileList | File[]): Promise<ImageDraft[]> {
  const images = [...files].filter((f) => /^image\/(png|jpeg|gif|webp)$/.test(f.type));
  return Promise.all(images.map(async (f) => ({ key: newKey(), name: f.name, dataUrl: await readDataUrl(f) })));
}

/** The content to judge: text or JSON, plus images by file picker or drag and drop. */
export function StateEditor({ draft, onChange }: { draft: SetDraft; onChange: (d: Partial<SetDraft>) => void }) {
  const [over, setOver] = useState(false);
  const onDrop = async (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    onChange({ images: [...draft.images, ...(await imagesFrom(e.dataTransfer.files))] });
  };
  return (
    <div
      className={`state-editor ${over ? 'drop-over' : ''}`}
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
    >
      <div className="toolbar">
        <fieldset className="segmented">
          <legend>State</legend>
          {(['text', 'json'] as const).map((mode) => (
            <label key={mode}>
              <input type="radio" name="state-mode" checked={draft.stateMode === mode} onChange={() => onChange({ stateMode: mode })} />
              {mode === 'text' ? 'text' : 'JSON'}
            </label>
          ))}
        </fieldset>
        <label className="file-button">
          Add images…
          <input
            type="file"
            accept="image/png,image/jpeg,image/gif,image/webp"
            multiple
            onChange={async (e) => e.target.files && onChange({ images: [...draft.images, ...(await imagesFrom(e.target.files))] })}
          />
        </label>
        <span className="muted small">or drop images here</span>
      </div>
      <label htmlFor="state-text" className="visually-hidden">
        State content
      </label>
      <textarea
        id="state-text"
        rows={6}
        value={draft.stateText}
        placeholder={draft.stateMode === 'json' ? '{"ticket": 42, "text": "…"}' : 'The content to judge…'}
        onChange={(e) => onChange({ stateText: e.target.value })}
      />
      {draft.images.length > 0 ? (
        <ul className="thumbs" aria-label="Images in the state">
          {draft.images.map((img) => (
            <li key={img.key}>
              <img src={img.dataUrl} alt={img.name} />
              <button
                type="button"
                className="secondary"
                aria-label={`Remove image ${img.name}`}
                onClick={() => onChange({ images: draft.images.filter((i) => i.key !== img.key) })}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
