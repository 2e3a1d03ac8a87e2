import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  fit,
  fromCorners,
  HANDLES,
  handlePoint,
  MAX_SCALE,
  MIN_SCALE,
  MIN_SIDE,
  move,
  normalise,
  pan,
  resize,
  snapToEdges,
  toImage,
  toScreen,
  zoomAt,
  type View,
} from './geometry';

const viewArb = fc.record({
  scale: fc.double({ min: MIN_SCALE, max: MAX_SCALE, noNaN: true }),
  x: fc.double({ min: -1e5, max: 1e5, noNaN: true }),
  y: fc.double({ min: -1e5, max: 1e5, noNaN: true }),
});
const pointArb = fc.record({ x: fc.double({ min: -1e4, max: 1e4, noNaN: true }), y: fc.double({ min: -1e4, max: 1e4, noNaN: true }) });
const fracArb = fc.double({ min: 0, max: 1, noNaN: true });
const boxArb = fc.record({ a: fracArb, b: fracArb, c: fracArb, d: fracArb }).map(({ a, b, c, d }) => normalise({ left: a, right: b, top: c, bottom: d }));
const close = (a: number, b: number, tolerance = 1e-6) => Math.abs(a - b) <= tolerance * Math.max(1, Math.abs(a), Math.abs(b));
const valid = (b: { left: number; right: number; top: number; bottom: number }) =>
  b.left >= 0 && b.top >= 0 && b.right <= 1 && b.bottom <= 1 && b.right - b.left >= MIN_SIDE - 1e-12 && b.bottom - b.top >= MIN_SIDE - 1e-12;

describe('view transforms', () => {
  it('screen → image → screen is the identity at any zoom and offset', () => {
    fc.assert(
      fc.property(viewArb, pointArb, (view, p) => {
        const back = toScreen(view, toImage(view, p));
        return close(back.x, p.x) && close(back.y, p.y);
      }),
    );
  });

  it('zooming about a point keeps the image point under it', () => {
    fc.assert(
      fc.property(viewArb, pointArb, fc.double({ min: 0.1, max: 10, noNaN: true }), (view, anchor, factor) => {
        const before = toImage(view, anchor);
        const zoomed = zoomAt(view, factor, anchor);
        const after = toImage(zoomed, anchor);
        expect(zoomed.scale).toBeGreaterThanOrEqual(MIN_SCALE);
        expect(zoomed.scale).toBeLessThanOrEqual(MAX_SCALE);
        return close(before.x, after.x, 1e-5) && close(before.y, after.y, 1e-5);
      }),
    );
  });

  it('zooming in then out by the same factor comes back (within the scale limits)', () => {
    const view: View = { scale: 1, x: 10, y: 20 };
    const back = zoomAt(zoomAt(view, 4, { x: 300, y: 200 }), 1 / 4, { x: 300, y: 200 });
    expect(back.scale).toBeCloseTo(1, 12);
    expect(back.x).toBeCloseTo(10, 9);
    expect(back.y).toBeCloseTo(20, 9);
  });

  it('panning moves every screen point by the same amount', () => {
    fc.assert(
      fc.property(viewArb, pointArb, fc.double({ min: -500, max: 500, noNaN: true }), (view, p, d) => {
        const s = toScreen(pan(view, d, -d), p);
        const t = toScreen(view, p);
        return close(s.x - t.x, d, 1e-6) && close(s.y - t.y, -d, 1e-6);
      }),
    );
  });

  it('fit shows the whole image, centred, touching two sides', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 8000 }),
        fc.integer({ min: 1, max: 8000 }),
        fc.integer({ min: 50, max: 3000 }),
        fc.integer({ min: 50, max: 3000 }),
        (w, h, vw, vh) => {
          const view = fit({ width: w, height: h }, { width: vw, height: vh });
          if (view.scale === MIN_SCALE || view.scale === MAX_SCALE) return true;
          const tl = toScreen(view, { x: 0, y: 0 });
          const br = toScreen(view, { x: w, y: h });
          expect(tl.x).toBeGreaterThanOrEqual(-1e-6);
          expect(tl.y).toBeGreaterThanOrEqual(-1e-6);
          expect(br.x).toBeLessThanOrEqual(vw + 1e-6);
          expect(br.y).toBeLessThanOrEqual(vh + 1e-6);
          expect(close(tl.x, vw - br.x) && close(tl.y, vh - br.y)).toBe(true);
          return close(br.x - tl.x, vw) || close(br.y - tl.y, vh);
        },
      ),
    );
  });
});

describe('editing boxes', () => {
  it('resizing by any handle to any point gives a box inside the image with its sides in order', () => {
    fc.assert(
      fc.property(boxArb, fc.constantFrom(...HANDLES), pointArb, fc.double({ min: 0, max: 0.05, noNaN: true }), (b, h, p, snap) =>
        valid(resize(b, h, { x: p.x / 1e4, y: p.y / 1e4 }, snap)),
      ),
    );
  });

  it('a handle dragged onto its own place leaves the box as it was', () => {
    fc.assert(
      fc.property(boxArb, fc.constantFrom(...HANDLES), (b, h) => {
        const r = resize(b, h, handlePoint(b, h));
        return close(r.left, b.left) && close(r.right, b.right) && close(r.top, b.top) && close(r.bottom, b.bottom);
      }),
    );
  });

  it('a side handle moves only its own edge', () => {
    const b = { left: 0.2, top: 0.2, right: 0.6, bottom: 0.6 };
    expect(resize(b, 'e', { x: 0.8, y: 0.9 })).toEqual({ left: 0.2, top: 0.2, right: 0.8, bottom: 0.6 });
    expect(resize(b, 'n', { x: 0.9, y: 0.1 })).toEqual({ left: 0.2, top: 0.1, right: 0.6, bottom: 0.6 });
    // Past the opposite edge, the box turns over.
    expect(resize(b, 'w', { x: 0.7, y: 0 })).toEqual({ left: 0.6, top: 0.2, right: 0.7, bottom: 0.6 });
  });

  it('snaps to the image edges within the tolerance and nowhere else', () => {
    fc.assert(
      fc.property(fracArb, fc.double({ min: 0, max: 0.1, noNaN: true }), (v, tol) => {
        const s = snapToEdges(v, tol);
        if (v <= tol) return s === 0;
        if (1 - v <= tol) return s === 1;
        return s === v;
      }),
    );
    expect(fromCorners({ x: 0.004, y: 0.3 }, { x: 0.5, y: 0.995 }, 0.01)).toEqual({ left: 0, top: 0.3, right: 0.5, bottom: 1 });
  });

  it('moving keeps the size and stays inside the image', () => {
    fc.assert(
      fc.property(boxArb, fc.double({ min: -2, max: 2, noNaN: true }), fc.double({ min: -2, max: 2, noNaN: true }), (b, dx, dy) => {
        const m = move(b, dx, dy);
        return valid(m) && close(m.right - m.left, b.right - b.left, 1e-9) && close(m.bottom - m.top, b.bottom - b.top, 1e-9);
      }),
    );
  });
});
