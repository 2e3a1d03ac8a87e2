import { useEffect, useRef } from 'react';
import { callAsPageLeaves } from '../../transport/transport';
import { releaseItem } from './api';

interface Held {
  datasetId: string;
  position: number;
}

/**
 * Gives the item held back the moment the reviewer leaves it, so another reviewer gets it now
 * rather than when its lease runs out: on leaving the screen or choosing another dataset or question
 * set, and as the tab is closed or reloaded (`pagehide`, whose request outlives the page). A page
 * kept by the browser and shown again asks for its item again (`reload`).
 */
export function useReleaseOnLeave(datasetId: string | null, questionSetId: string | null, position: number | null, reload: () => void): void {
  const held = useRef<Held | null>(null);
  const reloadRef = useRef(reload);
  useEffect(() => {
    reloadRef.current = reload;
    held.current = datasetId !== null && position !== null ? { datasetId, position } : null;
  }, [datasetId, position, reload]);

  // The source's cleanup runs before the effect above records the new source's item (none yet): it gives back the old one.
  useEffect(
    () => () => {
      if (held.current) releaseItem(held.current.datasetId, held.current.position);
      held.current = null;
    },
    [datasetId, questionSetId],
  );

  useEffect(() => {
    const leaving = () => {
      if (held.current) callAsPageLeaves('review.release', { dataset_id: held.current.datasetId, position: held.current.position });
    };
    const back = (event: PageTransitionEvent) => {
      if (event.persisted) reloadRef.current();
    };
    window.addEventListener('pagehide', leaving);
    window.addEventListener('pageshow', back);
    return () => {
      window.removeEventListener('pagehide', leaving);
      window.removeEventListener('pageshow', back);
    };
  }, []);
}
