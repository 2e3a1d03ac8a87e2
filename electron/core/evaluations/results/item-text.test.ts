import { describe, expect, it } from 'vitest';
import { itemText } from './item-text';

describe('item text', () => {
  it('is the text, its text parts, or what an image part is, cut at 160 characters', () => {
    expect(itemText('Charged twice.')).toBe('Charged twice.');
    expect(itemText([{ type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } }, 'the shelf'])).toBe('[image] the shelf');
    expect(itemText({ subject: 'Refund' })).toBe('{"subject":"Refund"}');
    const long = itemText('x'.repeat(400));
    expect(long).toHaveLength(160);
    expect(long.endsWith('…')).toBe(true);
  });
});
