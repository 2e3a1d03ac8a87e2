import { randomUUID } from 'node:crypto';
import type { BoxItem } from '../../../shared/schemas/inspector';
import { isoTime, type Clock } from '../clock';
import { GatewayError } from '../errors';
import type { BoxStorage, StoredBoxItem } from '../store/ports';

/** image-size, loaded with the first image read (an idle server holds none). */
import { imageSize } from '../images/image-size';

const toItem = ({ verdict_run_id, ...r }: StoredBoxItem): BoxItem => ({
  ...r,
  truth: r.truth as BoxItem['truth'],
  answer: r.answer as BoxItem['answer'],
  answers: r.answers as BoxItem['answers'],
  stale: r.verdict !== null && verdict_run_id !== r.run_id,
  // These rows keep only the run a verdict was given on, not its boxes: whether they changed is not known.
  stale_reason: r.verdict !== null && verdict_run_id !== r.run_id ? 'answers_differ' : null,
  verdict_model: r.verdict !== null && verdict_run_id === r.run_id ? r.model : null,
  // Images added before datasets: one verdict on the whole image, no history.
  verdicts: {},
  history: [],
});

/** Width and height of a base64 data: URL's image, or nulls when its header cannot be read. */
function sizeOf(dataUrl: string): { width: number | null; height: number | null } {
  try {
    const size = imageSize(Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64'));
    return size.width && size.height ? { width: size.width, height: size.height } : { width: null, height: null };
  } catch {
    return { width: null, height: null };
  }
}

export type BoxItemPatch = { [K in 'truth' | 'answer' | 'answers' | 'model' | 'run_id' | 'verdict' | 'note']?: BoxItem[K] | undefined };

/**
 * Images under box review, with people's ground truth and the model's answers. A verdict remembers
 * the run it was given on: when a later run replaces the answers, the item says its verdict is stale.
 */
export class BoxItems {
  constructor(
    private readonly storage: BoxStorage,
    private readonly clock: Clock,
  ) {}

  /** Every item; without images, data_url is '' and the rows stay small however large the images are. */
  async list({ images = true }: { images?: boolean } = {}): Promise<BoxItem[]> {
    return (await this.storage.listItems({ images })).map(toItem);
  }

  async image(id: string): Promise<{ id: string; data_url: string }> {
    const item = await this.storage.getItem(id);
    if (!item) throw new GatewayError('not_found', `No image with id "${id}"`);
    return { id, data_url: item.data_url };
  }

  async add(name: string, dataUrl: string): Promise<BoxItem> {
    const { width, height } = sizeOf(dataUrl);
    const item: StoredBoxItem = {
      id: `img-${randomUUID()}`,
      name,
      data_url: dataUrl,
      truth: [],
      answer: null,
      answers: {},
      model: null,
      run_id: null,
      verdict: null,
      verdict_run_id: null,
      note: '',
      width,
      height,
      created_at: isoTime(this.clock),
    };
    await this.storage.addItem(item);
    return toItem(item);
  }

  async update(id: string, patch: BoxItemPatch): Promise<BoxItem> {
    const item = await this.storage.getItem(id);
    if (!item) throw new GatewayError('not_found', `No image with id "${id}"`);
    const next: StoredBoxItem = {
      ...item,
      ...(patch.truth !== undefined ? { truth: patch.truth } : {}),
      ...(patch.answer !== undefined ? { answer: patch.answer } : {}),
      ...(patch.answers !== undefined ? { answers: patch.answers } : {}),
      ...(patch.model !== undefined ? { model: patch.model } : {}),
      ...(patch.run_id !== undefined ? { run_id: patch.run_id } : {}),
      ...(patch.note !== undefined ? { note: patch.note } : {}),
    };
    // A verdict set now is on the answers as they stand after this patch.
    if (patch.verdict !== undefined) Object.assign(next, { verdict: patch.verdict, verdict_run_id: patch.verdict === null ? null : next.run_id });
    await this.storage.putItem(next);
    return toItem(next);
  }

  async remove(id: string): Promise<{ id: string }> {
    await this.storage.removeItem(id);
    return { id };
  }
}
