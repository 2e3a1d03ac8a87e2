import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { push, redo, start, undo } from './history';

describe('edit history', () => {
  it('undoing every edit comes back to the start, and redoing them all to the end', () => {
    fc.assert(
      fc.property(fc.integer(), fc.array(fc.integer(), { maxLength: 50 }), (first, edits) => {
        const end = edits.reduce(push, start(first));
        let h = end;
        for (let i = 0; i < edits.length; i += 1) h = undo(h);
        expect(h.present).toBe(first);
        expect(undo(h)).toEqual(h);
        for (let i = 0; i < edits.length; i += 1) h = redo(h);
        expect(h.present).toBe(end.present);
        expect(redo(h)).toEqual(h);
      }),
    );
  });

  it('an edit after an undo drops what could have been redone', () => {
    const h = push(undo(push(push(start('a'), 'b'), 'c')), 'd');
    expect(h).toEqual({ past: ['a', 'b'], present: 'd', future: [] });
  });
});
