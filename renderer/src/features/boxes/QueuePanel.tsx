import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { BoxItem } from '../../../../shared/schemas/inspector';
import { Panel } from '../../ui/components';
import { useThumbnail } from './thumbnails';
import { NO_FILTER, verdictOn, worstIou, type QueueFilter, type VerdictFilter } from './review';
import type { RunModels } from './ReviewBar';
import { staleLabel, staleShort } from './stale';

interface Props {
  items: BoxItem[];
  shown: BoxItem[];
  total: number;
  selected: string | null;
  onSelect: (id: string) => void;
  filter: QueueFilter;
  onFilter: (f: QueueFilter) => void;
  questions: readonly string[];
  threshold: number;
  /** Names the source in the thumbnail cache's keys. */
  source: string;
  loadImage: (id: string) => Promise<string>;
  /** The models of the run under review (switching one shows its answers and verdicts), or null. */
  models: RunModels | null;
  /** Shown under the filters (the IoU a pass needs). */
  children?: ReactNode;
}

/** The verdict a row shows: with a question chosen, the one on that question's answer, named; else the image's. */
function verdictText(item: BoxItem, question: string | undefined): string {
  const { verdict } = verdictOn(item, question);
  if (verdict === null) return question === undefined ? '' : ` · ${question} not reviewed`;
  const unknown = item.verdict_model === null ? ' (model unknown)' : '';
  return question === undefined ? ` · ${verdict}${unknown}` : ` · ${question} ${verdict}${unknown}`;
}

const numberOrNull = (v: string) => (v.trim() === '' ? null : Math.min(1, Math.max(0, Number(v))));

/** The model of the run under review whose answers and verdicts are shown. */
function ModelSelect({ models }: { models: RunModels }) {
  return (
    <>
      <label htmlFor="queue-model">Judged model</label>
      <select
        id="queue-model"
        value={models.variant}
        title={models.names[models.variant]}
        onChange={(e) => models.onVariant(Number(e.target.value))}
        disabled={models.names.length < 2}
      >
        {models.names.map((name, i) => (
          <option key={`${i}-${name}`} value={i}>
            {name}
          </option>
        ))}
      </select>
    </>
  );
}

/** One end of the IoU range: a number from 0 to 1, or none when left empty. */
function IouEnd({
  id,
  label,
  placeholder,
  value,
  onValue,
}: {
  id: string;
  label: string;
  placeholder: string;
  value: number | null | undefined;
  onValue: (v: number | null) => void;
}) {
  return (
    <>
      <label className="visually-hidden" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        type="number"
        min={0}
        max={1}
        step={0.05}
        placeholder={placeholder}
        value={value ?? ''}
        onChange={(e) => onValue(numberOrNull(e.target.value))}
      />
    </>
  );
}

/** The IoU range, each end optional. */
function IouRange({ filter, onFilter }: Pick<Props, 'filter' | 'onFilter'>) {
  return (
    <span className="toolbar">
      <IouEnd id="queue-min-iou" label="IoU at least" placeholder="0" value={filter.minIou} onValue={(minIou) => onFilter({ ...filter, minIou })} />
      to
      <IouEnd id="queue-max-iou" label="IoU at most" placeholder="1" value={filter.maxIou} onValue={(maxIou) => onFilter({ ...filter, maxIou })} />
    </span>
  );
}

/** The queue's filters: judged model, verdict, question and IoU range. */
function QueueFilters({ filter, onFilter, questions, models }: Pick<Props, 'filter' | 'onFilter' | 'questions' | 'models'>) {
  return (
    <div className="queue-filters">
      {models ? <ModelSelect models={models} /> : null}
      <label htmlFor="queue-verdict">Verdict</label>
      <select id="queue-verdict" value={filter.verdict} onChange={(e) => onFilter({ ...filter, verdict: e.target.value as VerdictFilter })}>
        <option value="any">any</option>
        <option value="unreviewed">not reviewed</option>
        <option value="accepted">accepted</option>
        <option value="rejected">rejected</option>
        <option value="stale">stale (re-run or truth edited since)</option>
      </select>
      <label htmlFor="queue-question">Question</label>
      <select id="queue-question" value={filter.question ?? ''} onChange={(e) => onFilter({ ...filter, question: e.target.value || undefined })}>
        <option value="">all</option>
        {questions.map((q) => (
          <option key={q} value={q}>
            {q}
          </option>
        ))}
      </select>
      <span>IoU</span>
      <IouRange filter={filter} onFilter={onFilter} />
    </div>
  );
}

/** One image of the queue: its thumbnail, name, worst IoU, verdict and whether the verdict is stale. */
function QueueRow({
  item: i,
  position,
  setSize,
  current,
  onSelect,
  question,
  threshold,
  source,
  loadImage,
}: Pick<Props, 'onSelect' | 'threshold' | 'source' | 'loadImage'> & {
  item: BoxItem;
  position: number;
  setSize: number;
  current: boolean;
  question: string | undefined;
}) {
  const score = worstIou(i, question);
  return (
    <li aria-current={current ? 'true' : undefined} aria-posinset={position + 1} aria-setsize={setSize} style={{ top: position * ROW }}>
      <button type="button" className="link-button queue-item" onClick={() => onSelect(i.id)}>
        <Thumbnail key={`${source}:${i.id}`} cacheKey={`${source}:${i.id}`} load={() => loadImage(i.id)} />
        <span className="queue-text">
          <strong>{i.name}</strong>
          <span className="small">
            {score === null ? (
              <span className="muted">{i.truth.length === 0 ? 'no ground truth' : 'not run'}</span>
            ) : (
              <span className={score >= threshold ? 'text-ok' : 'text-error'}>IoU {score.toFixed(2)}</span>
            )}
            {verdictText(i, question)}
          </span>
          {i.stale ? (
            <span className="small text-stale" data-testid="queue-stale" title={`Stale verdict: ${staleLabel(i.stale_reason)}`}>
              {staleShort(i.stale_reason)}
            </span>
          ) : null}
        </span>
      </button>
    </li>
  );
}

/** The images to review, filtered by verdict, question and IoU range, with a thumbnail each. */
export function QueuePanel({ shown, total, selected, onSelect, filter, onFilter, questions, threshold, source, loadImage, models, children }: Props) {
  return (
    <Panel title="Review queue">
      <QueueFilters filter={filter} onFilter={onFilter} questions={questions} models={models} />
      {children}
      <p className="muted small" role="status">
        {shown.length} of {total} images
      </p>
      {shown.length === 0 ? (
        <div className="empty-filter">
          <p>No image matches these filters.</p>
          <button type="button" className="secondary" onClick={() => onFilter(NO_FILTER)}>
            Clear filters
          </button>
        </div>
      ) : (
        <WindowedList count={shown.length} selectedIndex={shown.findIndex((i) => i.id === selected)}>
          {(first, last) =>
            shown
              .slice(first, last)
              .map((i, k) => (
                <QueueRow
                  key={i.id}
                  item={i}
                  position={first + k}
                  setSize={shown.length}
                  current={i.id === selected}
                  onSelect={onSelect}
                  question={filter.question}
                  threshold={threshold}
                  source={source}
                  loadImage={loadImage}
                />
              ))
          }
        </WindowedList>
      )}
    </Panel>
  );
}

/** Height of one queue row in CSS pixels (thumbnail, name, IoU line). */
const ROW = 64;
const VIEW = 520;
const OVERSCAN = 6;

/**
 * The queue renders only the rows in view (plus a few), so a folder of thousands of images keeps
 * a few dozen thumbnails in the page; the selected row is scrolled into view when it changes.
 */
function WindowedList({ count, selectedIndex, children }: { count: number; selectedIndex: number; children: (first: number, last: number) => ReactNode }) {
  const scroller = useRef<HTMLDivElement>(null);
  const [top, setTop] = useState(0);
  useEffect(() => {
    const el = scroller.current;
    if (!el || selectedIndex < 0) return;
    const y = selectedIndex * ROW;
    if (y < el.scrollTop) el.scrollTop = y;
    else if (y + ROW > el.scrollTop + el.clientHeight) el.scrollTop = y + ROW - el.clientHeight;
  }, [selectedIndex]);
  const first = Math.max(0, Math.floor(top / ROW) - OVERSCAN);
  const last = Math.min(count, Math.ceil((top + VIEW) / ROW) + OVERSCAN);
  return (
    <div ref={scroller} className="queue-scroll" style={{ maxHeight: VIEW }} onScroll={(e) => setTop(e.currentTarget.scrollTop)}>
      <ul className="set-list box-queue" aria-label="Images" style={{ height: count * ROW }}>
        {children(first, last)}
      </ul>
    </div>
  );
}

function Thumbnail({ cacheKey, load }: { cacheKey: string; load: () => Promise<string> }) {
  const url = useThumbnail(cacheKey, load);
  return url ? <img className="box-thumb" src={url} alt="" data-testid="box-thumb" /> : <span className="box-thumb" aria-hidden="true" />;
}
