import type { DecisionsRequest } from '../../../../shared/schemas/decisions-request';

/** A CSV field, quoted when it holds a comma, a quote or a line break. */
const field = (text: string) => (/[",\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text);

/**
 * A CSV to fill in for a question set: its header (id, state, an expected column per question) and
 * one row showing each question's answer as the importer reads it: true or false, an option as the
 * set spells it, a level's number, a box as fractions (here the whole image).
 */
export function templateCsv(questions: DecisionsRequest['questions']): string {
  const names = Object.keys(questions);
  const example = names.map((name) => {
    const q = questions[name]!;
    if (q.type === 'noul') return 'true';
    if (q.type === 'choice') return field(Object.keys(q.criteria)[0] ?? '');
    if (q.type === 'score') return '0';
    return field(JSON.stringify({ top: 0, left: 0, bottom: 1, right: 1 }));
  });
  return `${['id', 'state', ...names.map((n) => field(`expected.${n}`))].join(',')}\n${['example-1', 'The content to judge', ...example].join(',')}\n`;
}
