import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import type { EvalRun } from '../../../../shared/schemas/evaluation';
import type { BoxItem } from '../../../../shared/schemas/inspector';
import { once } from '../../lib/send-once';
import { announce } from '../../ui/announcer';
import { focusWhenShown } from '../../ui/focus-when-shown';
import { boxImageQuery, itemsKey, LEGACY, useRemoveImage, useRunOnImage, useUpdateItem, type BoxSource } from './api';
import { reviewQuestions, type RunImage, type RunModels, type Verdict } from './ReviewBar';
import { neighbour } from './review';
import { imageLine, verdictLine } from './review-text';
import { useReviewKeys } from './use-review-keys';

interface Options {
  source: BoxSource | null;
  datasetId: string | null;
  run: EvalRun | undefined;
  variant: number;
  onVariant: (runId: string, variant: number) => void;
  list: readonly BoxItem[];
  shown: readonly BoxItem[];
  names: string[];
  selected: string | null;
  onSelect: (id: string | null) => void;
  autoAdvance: boolean;
}

/**
 * Reviewing the image in the editor: its image, moving through the queue, verdicts and notes per
 * answer (or on the whole image), sending it again through the run, and the keys for all of it.
 */
export function useBoxReview({ source, datasetId, run, variant, onVariant, list, shown, names, selected, onSelect, autoAdvance }: Options) {
  const queryClient = useQueryClient();
  const current = list.find((i) => i.id === selected) ?? null;
  // The label the next box gets (1–9 choose it), the answer under review, and answers hidden from the image.
  const [nextLabel, setNextLabel] = useState<string | undefined>(undefined);
  const [focus, setFocus] = useState<string | null>(null);
  const [hidden, setHidden] = useState<ReadonlySet<string>>(new Set());
  const replace = (item: BoxItem) => source && queryClient.setQueryData<BoxItem[]>(itemsKey(source), (old) => old?.map((i) => (i.id === item.id ? item : i)));
  const image = useQuery({ ...boxImageQuery(source ?? LEGACY, current?.id ?? ''), enabled: current !== null && source !== null });
  const update = useUpdateItem(source, replace);
  const remove = useRemoveImage();
  const step = (by: 1 | -1) => {
    const next = neighbour(
      shown.map((i) => i.id),
      selected,
      by,
    );
    if (!next) return;
    const at = shown.findIndex((i) => i.id === next);
    // Drawing goes on on the next image: the canvas that had focus is replaced by that image's.
    if (document.activeElement?.matches('[data-testid="box-canvas"]')) {
      const label = `Ground truth for ${shown[at]!.name}:`;
      focusWhenShown(() => [...document.querySelectorAll<HTMLElement>('[data-testid="box-canvas"]')].find((c) => c.ariaLabel?.startsWith(label)));
    }
    onSelect(next);
    announce(imageLine(shown[at]!, at, shown.length));
  };
  const perQuestion = source?.kind === 'dataset';
  const itemQuestions = current ? reviewQuestions(current, names) : [];
  const focused = perQuestion ? (focus && itemQuestions.includes(focus) ? focus : (itemQuestions[0] ?? null)) : null;
  /**
   * A verdict is set, never toggled (Clear is its own action), on one answer or on the whole image.
   * Then the next answer without a verdict comes under review; with none left, the next image.
   */
  const verdict = (question: string | null, v: Verdict) => {
    if (!current) return;
    update.mutate(
      { id: current.id, verdict: v, ...(question !== null && perQuestion ? { question } : {}) },
      {
        onSuccess: (item) => {
          announce(verdictLine(question !== null && perQuestion ? question : null, v));
          if (v === null) return;
          const open = reviewQuestions(item, names).filter((q) => q in item.answers && !item.verdicts[q]);
          if (perQuestion && open.length > 0) {
            setFocus(open[0]!);
            announce(`Next answer under review: ${open[0]!}.`);
          } else if (autoAdvance && (item.verdict !== null || !perQuestion)) step(1);
        },
      },
    );
  };
  const note = (question: string | null, text: string) =>
    current && update.mutate({ id: current.id, note: text, ...(question !== null && perQuestion ? { question } : {}) });
  // The models of the run under review: verdicts are kept per model, so switching shows that model's.
  const runModels: RunModels | null =
    run && source?.kind === 'dataset' ? { names: run.variants.map((v) => v.name), variant: source.variant, onVariant: (v) => onVariant(run.id, v) } : null;
  // G pressed twice, or the button clicked twice, sends the image once.
  const runImageHeld = useRef(false);
  const runOnImage = useRunOnImage({ datasetId, position: Number(current?.id), runId: run?.id, variant });
  const runImage: RunImage = {
    blocked:
      source?.kind !== 'dataset'
        ? 'Copy these images into a dataset first'
        : !run
          ? 'Run over the dataset first: the image is sent again through that run'
          : run.status === 'running'
            ? 'The run is still sending; wait until it ends or pause it'
            : run.status === 'cancelled'
              ? 'The run is cancelled; start a new one'
              : null,
    pending: runOnImage.isPending || (runOnImage.isSuccess && run?.status === 'running'),
    onRun: (every) => once(runImageHeld, () => runOnImage.mutateAsync(every)),
  };
  useReviewKeys(current !== null, {
    // A and R judge the answer under review; with Shift, the whole image. C clears.
    onVerdict: (wholeImage, v) => verdict(wholeImage || !perQuestion ? null : focused, v),
    onLabel: (digit) => {
      const label = names[digit - 1];
      if (label) setNextLabel(label);
    },
    onStep: step,
    onRunImage: (every) => {
      if (runImage.blocked === null && !runImage.pending) runImage.onRun(every);
    },
  });
  const effectiveLabel = nextLabel === undefined ? names[0] : nextLabel || undefined;
  const toggleHidden = (q: string) => setHidden((h) => (h.has(q) ? new Set([...h].filter((x) => x !== q)) : new Set([...h, q])));
  return {
    current,
    image,
    replace,
    update,
    remove,
    step,
    perQuestion,
    focused,
    setFocus,
    verdict,
    note,
    runModels,
    runOnImage,
    runImage,
    nextLabel: effectiveLabel,
    setNextLabel,
    hidden,
    toggleHidden,
  };
}
