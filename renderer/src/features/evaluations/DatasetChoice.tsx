import type { DatasetFit, DatasetSummary } from '../../../../shared/schemas/evaluation';
import { datasetOption } from './dataset-choice';

interface Props {
  datasets: DatasetSummary[];
  /** How each dataset suits the chosen set, once known. */
  fits: DatasetFit[] | undefined;
  value: string;
  onChange: (id: string) => void;
  /** What is wrong with the pairing (dataset-choice.ts), said as soon as it is chosen. */
  problems: string[];
  /** Start was pressed with those problems: the run waits for a second Start. */
  asked: boolean;
}

/** The dataset to run the set over, each option saying how many of its items the set can be judged on, and what is wrong with the one chosen. */
export function DatasetChoice({ datasets, fits, value, onChange, problems, asked }: Props) {
  return (
    <>
      <label>
        Dataset
        <select value={value} onChange={(e) => onChange(e.target.value)} aria-label="Dataset to evaluate on">
          {datasets.map((d) => (
            <option key={d.id} value={d.id}>
              {datasetOption(
                d,
                fits?.find((f) => f.dataset_id === d.id),
              )}
            </option>
          ))}
        </select>
      </label>
      {problems.length > 0 ? (
        <div className="notice notice-warn" role="note" aria-label="Dataset and question set">
          <ul className="plain-list">
            {problems.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
          {asked ? (
            <p role="alert">Nothing was sent. Start anyway to run it as it is, or choose another dataset or question set.</p>
          ) : (
            <p className="small">Start asks again before anything is sent.</p>
          )}
        </div>
      ) : null}
    </>
  );
}
