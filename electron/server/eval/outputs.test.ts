import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ciOf } from '../../test-support/ci-report-fixture';
import { tempDir } from '../../test-support/temp-core';
import { appendStepSummary } from './outputs';

describe('the GitHub step summary', () => {
  const dir = tempDir();
  afterAll(() => dir.cleanup());
  const report = ciOf(Array.from({ length: 40 }, (_, i) => ({ p: i % 3 ? 0.8 : 0.3, expected: i % 2 === 0 })));
  const MIB = 1024 * 1024;

  it('is appended after what the step wrote, and cut to what is left of its 1 MiB', () => {
    const path = join(dir.path, 'summary.md');
    const earlier = `${'x'.repeat(MIB - 4000)}\n`;
    writeFileSync(path, earlier);
    appendStepSummary(path, report);
    const after = readFileSync(path);
    expect(after.length).toBeLessThanOrEqual(MIB);
    expect(after.subarray(0, earlier.length).toString()).toBe(earlier);
    expect(after.toString()).toMatch(/more lines left out to keep this summary under 999 characters/);
  });

  it('is left out, with a note, when the step used up its 1 MiB', () => {
    const path = join(dir.path, 'full.md');
    writeFileSync(path, 'x'.repeat(MIB - 100));
    appendStepSummary(path, report);
    expect(readFileSync(path).length).toBe(MIB - 100);
  });
});
