import { useMemo, useState, type FormEvent } from 'react';
import type { CaptureRule } from '../../../../shared/schemas/capture';
import { announce } from '../../ui/announcer';
import { useCreateCaptureRule } from './api';
import { EMPTY_DRAFT, fieldProblems, ruleInput, type FieldProblems, type RuleDraft } from './capture-form';

/**
 * The new rule's form: the draft as typed, each problem beside the field it names (the condition's
 * JSON checked here on submit, the rest by the core), and the refusal as a whole for the form's notice.
 */
export function useCaptureRuleForm(onMade: () => void) {
  const [draft, setDraft] = useState<RuleDraft>(EMPTY_DRAFT);
  // The condition's JSON problem, found before anything is sent.
  const [unparsed, setUnparsed] = useState<FieldProblems>({});
  const create = useCreateCaptureRule((rule: CaptureRule) => {
    setDraft(EMPTY_DRAFT);
    announce(`Made the capture rule “${rule.name}”: what it captures goes to the dataset “${rule.dataset_name}”.`);
    onMade();
  });
  const set = <K extends keyof RuleDraft>(key: K, value: RuleDraft[K]) => setDraft((d) => ({ ...d, [key]: value }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!draft.name.trim() || create.isPending) return;
    const read = ruleInput(draft);
    if ('problems' in read) {
      create.reset();
      setUnparsed(read.problems);
      return;
    }
    setUnparsed({});
    create.mutate(read.input);
  };
  const problems: FieldProblems = unparsed.when ? unparsed : fieldProblems(create.error);
  // One object while the refusal stands: the form moves focus when it changes, not at each keystroke.
  const error = useMemo(() => (unparsed.when ? new Error(unparsed.when) : create.error), [unparsed.when, create.error]);
  return { draft, set, submit, problems, error, pending: create.isPending };
}
