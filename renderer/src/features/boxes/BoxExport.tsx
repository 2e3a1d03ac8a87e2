import { useState } from 'react';
import type { BoxItem } from '../../../../shared/schemas/inspector';
import { ErrorNotice } from '../../ui/components';
import { toBoxImages } from './review';
import { exportBase, exportFiles, save, type ExportFormat } from './transfer';
import { useStored } from '../../lib/use-stored';

const FORMATS: { format: ExportFormat; label: string }[] = [
  { format: 'coco', label: 'COCO JSON (truth and answers, zipped)' },
  { format: 'label-studio', label: 'Label Studio JSON' },
  { format: 'yolo', label: 'YOLO (zip)' },
  { format: 'csv', label: 'CSV (pixels)' },
];

/** The export format and its button: the truth, the answers with their IoU and the review, as files. */
export function BoxExport({
  items,
  threshold,
  name,
}: {
  items: readonly BoxItem[];
  threshold: number;
  /** what is exported, in its files' names */ name: string;
}) {
  const [format, setFormat] = useStored<ExportFormat>('verdict.boxes.exportFormat', 'coco');
  const [error, setError] = useState<unknown>(null);
  const exportAs = () => {
    setError(null);
    try {
      exportFiles(format, toBoxImages(items), exportBase(name, new Date()), threshold).forEach(save);
    } catch (e) {
      setError(e);
    }
  };
  return (
    <span className="button-group">
      <label htmlFor="box-export-format" className="visually-hidden">
        Export format
      </label>
      <select id="box-export-format" value={format} onChange={(e) => setFormat(e.target.value as ExportFormat)}>
        {FORMATS.map((f) => (
          <option key={f.format} value={f.format}>
            {f.label}
          </option>
        ))}
      </select>
      <button type="button" className="secondary" disabled={items.length === 0} onClick={exportAs}>
        Export
      </button>
      {error ? <ErrorNotice error={error} title="Not exported" /> : null}
    </span>
  );
}
