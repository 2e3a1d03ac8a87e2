import { useEffect, useRef } from 'react';
import { actionFor } from '../../lib/shortcuts';
import { isTyping, shortcutSettings } from '../../lib/use-shortcuts';
import type { Verdict } from './ReviewBar';

export interface ReviewKeys {
  /** A verdict on the answer under review, or with Shift on the whole image; null clears it. */
  onVerdict: (wholeImage: boolean, verdict: Verdict) => void;
  /** 1–9: the label of the next box drawn, as label hotkeys work in Label Studio and CVAT. */
  onLabel: (digit: number) => void;
  onStep: (by: 1 | -1) => void;
  /** Run on this image: to the model under review, or with Shift to every model of the run. */
  onRunImage: (every: boolean) => void;
}

/**
 * The Boxes screen's single-key shortcuts, outside text fields, while an image is shown: the keys
 * are those in Settings (A, R, C, J, K, [, ], G and 1–9 unless changed), and none acts when they are
 * turned off there.
 */
export function useReviewKeys(active: boolean, handlers: ReviewKeys): void {
  const latest = useRef({ active, handlers });
  latest.current = { active, handlers };
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const { active: on, handlers: h } = latest.current;
      if (!on || isTyping(e.target)) return;
      const action = actionFor(shortcutSettings(), e);
      if (action === null || action.id === 'help') return;
      if (action.id === 'label') h.onLabel(action.digit);
      else if (action.id === 'accept') h.onVerdict(action.shift, 'accepted');
      else if (action.id === 'reject') h.onVerdict(action.shift, 'rejected');
      else if (action.id === 'clear') h.onVerdict(action.shift, null);
      else if (action.id === 'next') h.onStep(1);
      else if (action.id === 'previous') h.onStep(-1);
      else h.onRunImage(action.shift);
      e.preventDefault();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
}
