import type { BoxSource } from './api';
import { DatasetPicker } from './DatasetPicker';
import { ProgressBar } from '../../ui/ProgressBar';

/** Which images are under review, and adding images or a folder (into this dataset, or as a new one). */
export function BoxSourceBar({
  datasetId,
  source,
  onOpen,
  adding,
  onFiles,
}: {
  datasetId: string | null;
  source: BoxSource | null;
  onOpen: (id: string | null) => void;
  adding: { done: number; total: number } | null;
  onFiles: (files: FileList, folder: boolean) => void;
}) {
  return (
    <div className="toolbar boxes-source">
      <DatasetPicker value={datasetId} onChange={onOpen} />
      <label className="file-button secondary" title={source?.kind === 'dataset' ? 'Add images to this dataset' : 'Make a dataset of images'}>
        Add images…
        <input type="file" accept="image/png,image/jpeg,image/gif,image/webp" multiple onChange={(e) => e.target.files && onFiles(e.target.files, false)} />
      </label>
      <label className="file-button secondary" title="Make a dataset of a folder's images, named after the folder">
        Add a folder…
        <input type="file" multiple {...({ webkitdirectory: '' } as object)} onChange={(e) => e.target.files && onFiles(e.target.files, true)} />
      </label>
      {adding ? (
        <ProgressBar label="Images added" done={adding.done} total={adding.total} valueText={`${adding.done} of ${adding.total}`} className="muted small">
          Adding images: {adding.done} of {adding.total}
        </ProgressBar>
      ) : (
        <span className="muted small" title="Datasets of images imported in Evaluations open here too.">
          {source?.kind === 'dataset' ? 'Images added go into this dataset; a folder makes a new one.' : 'Images added make a dataset.'}
        </span>
      )}
    </div>
  );
}
