import { describe, expect, it } from 'vitest';
import { buildRequest, draftFrom, emptyDraft, newQuestion } from './draft';

describe('question set drafts', () => {
  it('build the request a saved set sends, and read it back unchanged', () => {
    const request = {
      model: 'acme/judge',
      state: 'The parcel came late.',
      questions: {
        late: { type: 'noul' as const, instructions: 'Late?', criteria: { true: 'it says late', false: 'on time' } },
        topic: { type: 'choice' as const, instructions: 'Topic?', criteria: { delivery: null, billing: { hint: 'invoices' } } },
        severity: { type: 'score' as const, instructions: 'How bad?', criteria: ['none', 'some'] },
      },
      provider: { sort: 'price' as const },
    };
    const draft = draftFrom('set-1', 'Triage', request);
    const built = buildRequest(draft);
    expect(built.problems).toEqual([]);
    expect(built.valid).toEqual(request);
  });

  it('a set without content can be saved (Evaluations gives each item its own) but not run', () => {
    const draft = draftFrom(undefined, 'For datasets', { model: 'acme/judge', state: '', questions: { late: { type: 'noul', instructions: 'Late?' } } });
    const built = buildRequest(draft);
    expect(built.problems.map((p) => p.path)).toEqual(['state']);
    expect(built.valid).toBeNull();
    expect(built.savable).toEqual({ model: 'acme/judge', state: '', questions: { late: { type: 'noul', instructions: 'Late?' } } });
    // Any other problem keeps it from being saved too.
    draft.questions = [{ ...newQuestion('noul', 'late'), instructions: '' }];
    expect(buildRequest(draft).savable).toBeNull();
  });

  it('names each problem by its JSON path', () => {
    const draft = emptyDraft('');
    draft.questions = [{ ...newQuestion('score', 'q1'), levels: [] }, newQuestion('noul', 'q1')];
    draft.preferences = '{"sortt": 1}';
    const paths = buildRequest(draft).problems.map((p) => p.path);
    expect(paths).toContain('model');
    expect(paths).toContain('questions.q1');
    draft.questions = [{ ...newQuestion('score', 'q1'), levels: [] }];
    expect(buildRequest(draft).problems.map((p) => p.path)).toEqual(expect.arrayContaining(['questions.q1.criteria', 'provider.sortt']));
  });

  it('puts images into state as data-URL content parts after the text', () => {
    const draft = { ...emptyDraft('acme/v'), stateText: 'Find the card.', images: [{ key: 'i', name: 'a.png', dataUrl: 'data:image/png;base64,AAAA' }] };
    draft.questions = [{ ...newQuestion('box', 'card'), instructions: 'the card' }];
    expect(buildRequest(draft).valid?.state).toEqual([
      { type: 'text', text: 'Find the card.' },
      { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
    ]);
  });
});
