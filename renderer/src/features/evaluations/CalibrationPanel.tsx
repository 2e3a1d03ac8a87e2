import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { CalibrationSummary, EvalRun } from '../../../../shared/schemas/evaluation';
import { call } from '../../transport/transport';
import { ErrorNotice, Panel } from '../../ui/components';
import { evalKeys } from './api';
import { calibrationWarning, temperatureText } from './calibration-text';

type Fit = { run: string; variant: number; question: string; calibration: CalibrationSummary | null };

const n = (v: number | null) => (v === null ? '—' : v.toFixed(4));

/** Fit a temperature for one model and question (even items), see before/after on odd items, save it for later runs. */
export function CalibrationPanel({ run, questions }: { run: EvalRun; questions: string[] }) {
  const queryClient = useQueryClient();
  const [variant, setVariant] = useState(0);
  const [question, setQuestion] = useState(questions[0] ?? '');
  // A fit belongs to the run, model and question it was asked for: shown and saved only for them, even when it is answered after the choice changed.
  const save = useMutation({
    mutationFn: (made: Fit) =>
      call('evals.saveCalibration', { id: made.run, variant: made.variant, question: made.question, temperature: made.calibration!.temperature }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: evalKeys.all }),
  });
  const [made, setMade] = useState<Fit | undefined>(undefined);
  const fit = useMutation({
    mutationFn: async (target: { variant: number; question: string }): Promise<Fit> => ({
      run: run.id,
      ...target,
      calibration: (await call('evals.fitCalibration', { id: run.id, ...target })).calibration,
    }),
    onSuccess: (next) => {
      save.reset();
      setMade(next);
    },
  });
  const fitted = made && made.run === run.id && made.variant === variant && made.question === question ? made.calibration : undefined;
  const saved = save.isSuccess && save.variables === made;
  const worse = fitted ? calibrationWarning(fitted) : null;
  return (
    <Panel title="Calibration">
      <p className="muted small">
        A temperature T is fitted by minimising log loss on the items at even positions, and judged on the odd ones (the ECE in Metrics is over every item, so
        it differs from the figures here). Saved, it adjusts later runs of this question set on this model; adjusted answers say so in their method and keep the
        raw value.
      </p>
      <div className="toolbar">
        <select
          value={variant}
          onChange={(e) => {
            setVariant(Number(e.target.value));
          }}
          aria-label="Model to calibrate"
        >
          {run.variants.map((v, i) => (
            <option key={v.name} value={i}>
              {v.name}
            </option>
          ))}
        </select>
        <select
          value={question}
          onChange={(e) => {
            setQuestion(e.target.value);
          }}
          aria-label="Question to calibrate"
        >
          {questions.map((q) => (
            <option key={q} value={q}>
              {q}
            </option>
          ))}
        </select>
        <button type="button" onClick={() => fit.mutate({ variant, question })} disabled={fit.isPending}>
          Fit calibration
        </button>
      </div>
      {fit.error ? <ErrorNotice error={fit.error} title="Not fitted" /> : null}
      {fitted === null ? <p className="notice notice-warn">Not enough labelled answers with probabilities on both halves to fit.</p> : null}
      {fitted ? (
        <div role="status" aria-label="Fitted calibration">
          <dl className="facts">
            <dt>Temperature</dt>
            <dd className="mono">{temperatureText(fitted.temperature, 3).slice(2)}</dd>
            <dt>ECE (held-out odd items)</dt>
            <dd className="mono">
              {n(fitted.ece_before)} → {n(fitted.ece_after)}
            </dd>
            <dt>Log loss (held-out odd items)</dt>
            <dd className="mono">
              {n(fitted.log_loss_before)} → {n(fitted.log_loss_after)}
            </dd>
          </dl>
          {worse ? (
            <p className="notice notice-warn" role="note">
              {worse} Keep this model uncalibrated for this question; saving it would make later runs worse on items like these.
            </p>
          ) : null}
          {/* A fit that makes held-out figures worse is not the main action: saving it stays possible, asked for by name. */}
          <button type="button" className={worse ? 'secondary' : undefined} onClick={() => save.mutate(made!)} disabled={save.isPending || saved}>
            {saved ? 'Saved: applies to later runs' : worse ? 'Save anyway' : 'Save calibration'}
          </button>
          {save.error ? <ErrorNotice error={save.error} title="Not saved" /> : null}
        </div>
      ) : null}
    </Panel>
  );
}
