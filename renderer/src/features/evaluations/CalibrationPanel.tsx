import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { CalibrationSummary, EvalRun } from '../../../../shared/schemas/evaluation';
import { call } from '../../transport/transport';
import { ErrorNotice, Panel } from '../../ui/components';
import { evalKeys } from './api';
import { calibrationWarning, temperatureText } from './calibration-text';

const n = (v: number | null) => (v === null ? '—' : v.toFixed(4));

/** Fit a temperature for one model and question (even items), see before/after on odd items, save it for later runs. */
export function CalibrationPanel({ run, questions }: { run: EvalRun; questions: string[] }) {
  const queryClient = useQueryClient();
  const [variant, setVariant] = useState(0);
  const [question, setQuestion] = useState(questions[0] ?? '');
  const [fitted, setFitted] = useState<CalibrationSummary | null | undefined>(undefined);
  const fit = useMutation({ mutationFn: () => call('evals.fitCalibration', { id: run.id, variant, question }), onSuccess: (r) => setFitted(r.calibration) });
  const save = useMutation({
    mutationFn: () => call('evals.saveCalibration', { id: run.id, variant, question, temperature: fitted!.temperature }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: evalKeys.all }),
  });
  return (
    <Panel title="Calibration">
      <p className="muted small">
        A temperature T is fitted by minimising log loss on the items at even positions, and judged on the odd ones. Saved, it adjusts later runs of this question set on
        this model; adjusted answers say so in their method and keep the raw value.
      </p>
      <div className="toolbar">
        <select value={variant} onChange={(e) => {
            setVariant(Number(e.target.value));
            setFitted(undefined);
          }} aria-label="Model to calibrate">
          {run.variants.map((v, i) => (
            <option key={v.name} value={i}>
              {v.name}
            </option>
          ))}
        </select>
        <select value={question} onChange={(e) => {
            setQuestion(e.target.value);
            setFitted(undefined);
          }} aria-label="Question to calibrate">
          {questions.map((q) => (
            <option key={q} value={q}>
              {q}
            </option>
          ))}
        </select>
        <button type="button" onClick={() => fit.mutate()} disabled={fit.isPending}>
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
            <dt>ECE (odd items)</dt>
            <dd className="mono">
              {n(fitted.ece_before)} → {n(fitted.ece_after)}
            </dd>
            <dt>Log loss (odd items)</dt>
            <dd className="mono">
              {n(fitted.log_loss_before)} → {n(fitted.log_loss_after)}
            </dd>
          </dl>
          {calibrationWarning(fitted) ? <p className="notice notice-warn">{calibrationWarning(fitted)}</p> : null}
          <button type="button" onClick={() => save.mutate()} disabled={save.isPending || save.isSuccess}>
            {save.isSuccess ? 'Saved: applies to later runs' : 'Save calibration'}
          </button>
          {save.error ? <ErrorNotice error={save.error} title="Not saved" /> : null}
        </div>
      ) : null}
    </Panel>
  );
}
