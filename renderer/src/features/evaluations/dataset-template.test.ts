import { describe, expect, it } from 'vitest';
import { templateCsv } from './dataset-template';

describe('templateCsv', () => {
  it('has a column per question and a row giving each answer as the importer reads it', () => {
    const csv = templateCsv({
      urgent: { type: 'noul', instructions: 'Urgent?' },
      category: { type: 'choice', instructions: 'About?', criteria: { 'billing, refunds': null, bug: null } },
      tone: { type: 'score', instructions: 'Tone?', criteria: ['calm', 'angry'] },
      card: { type: 'box', instructions: 'The card' },
    });
    expect(csv).toBe(
      'id,state,expected.urgent,expected.category,expected.tone,expected.card\n' +
        'example-1,The content to judge,true,"billing, refunds",0,"{""top"":0,""left"":0,""bottom"":1,""right"":1}"\n',
    );
  });
});
