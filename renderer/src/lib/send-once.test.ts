import { describe, expect, it } from 'vitest';
import { firstClick, once } from './send-once';

describe('acting once', () => {
  it("a double click's second click does nothing; a single click and keyboard activation act", () => {
    let acted = 0;
    const onClick = firstClick(() => (acted += 1));
    onClick({ detail: 1 });
    onClick({ detail: 2 });
    expect(acted).toBe(1);
    onClick({ detail: 0 });
    expect(acted).toBe(2);
    onClick({ detail: 3 });
    expect(acted).toBe(2);
  });

  it('a send still going holds the next one; once it ends the next goes', async () => {
    const held = { current: false };
    let sent = 0;
    let finish!: () => void;
    once(held, () => new Promise<void>((resolve) => ((sent += 1), (finish = resolve))));
    once(held, async () => void (sent += 1));
    expect(sent).toBe(1);
    finish();
    await new Promise((r) => setTimeout(r, 0));
    once(held, async () => void (sent += 1));
    expect(sent).toBe(2);
  });
});
