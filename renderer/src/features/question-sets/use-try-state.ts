import { useEffect, useState } from 'react';
import { keepExamples, readExamples, type Example } from './examples';
import { keepTried, readTried } from './try-store';

/** The set's examples, kept with it across screens and reloads; read again when another set opens. */
export function useKeptExamples(setId: string | undefined): [Example[], (next: Example[]) => void] {
  const [examples, setExamples] = useState<Example[]>(() => readExamples(setId));
  useEffect(() => setExamples(readExamples(setId)), [setId]);
  const change = (next: Example[]) => {
    setExamples(next);
    keepExamples(setId, next);
  };
  return [examples, change];
}

/** Run ids by example and model, kept with the set across screens and reloads (try-store.ts). */
export function useKeptTried(setId: string | undefined): [Record<string, string>, (next: Record<string, string>) => void] {
  const [runs, setRunsShown] = useState<Record<string, string>>(() => readTried(setId));
  useEffect(() => setRunsShown(readTried(setId)), [setId]);
  const setRuns = (next: Record<string, string>) => {
    setRunsShown(next);
    keepTried(setId, next);
  };
  return [runs, setRuns];
}
