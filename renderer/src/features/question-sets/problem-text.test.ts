import { describe, expect, it } from 'vitest';
import { buildRequest, emptyDraft, newQuestion } from './draft';
import { showProblem } from './problem-text';

describe("problems in the form's words", () => {
  it('an option without a name says so, not "Invalid key in record"', () => {
    const q = newQuestion('choice', 'q2');
    q.instructions = 'Which?';
    q.options = [
      { key: 'a', name: 'refund', guidance: '' },
      { key: 'b', name: '', guidance: '' },
    ];
    const d = { ...emptyDraft('sandbox/baseline-text'), stateText: 'text', questions: [q] };
    const shown = buildRequest(d).problems.map(showProblem);
    expect(shown).toContainEqual({ field: 'Question “q2”, options', fix: 'Give every option a name, or remove the empty option.' });
    for (const s of shown) expect(`${s.field} ${s.fix}`).not.toMatch(/Invalid key|criteria\[|questions\./);
  });

  it('blank state and blank instructions are problems named beside their fields', () => {
    const built = buildRequest({ ...emptyDraft('sandbox/baseline-text'), stateText: '   ' });
    expect(built.valid).toBeNull();
    const shown = built.problems.map(showProblem);
    expect(shown.map((s) => s.field)).toEqual(expect.arrayContaining(['State', 'Question “q1”, instructions']));
  });
});
