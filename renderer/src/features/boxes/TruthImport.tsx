/** Truth from files another tool wrote (COCO, Label Studio, CSV, YOLO), for the images loaded here. */
export function TruthImport({ disabled, onFiles }: { disabled: boolean; onFiles: (files: FileList) => void }) {
  return (
    <label
      className={`file-button secondary${disabled ? ' disabled' : ''}`}
      title="COCO or Label Studio JSON, CSV as exported here, or YOLO classes.txt with label files"
    >
      Import truth…
      <input type="file" accept=".json,.csv,.txt,.names" multiple disabled={disabled} onChange={(e) => e.target.files && onFiles(e.target.files)} />
    </label>
  );
}
