import { readFileSync } from 'node:fs';
import type { TestSequencer, TestSpecification, Vitest } from 'vitest/node';

/** Whether a test file asks for the browser-like environment (`// @vitest-environment jsdom` at its top). */
const wantsDom = (file: TestSpecification) => /^\s*\/\/ @vitest-environment jsdom/m.test(readFileSync(file.moduleId, 'utf8').slice(0, 2_000));

/**
 * Vitest's order (longest or largest first), with the files that run in jsdom moved after the rest.
 * A worker that shares its modules between files is kept only while the next file in the queue runs
 * in the same environment: with the jsdom files spread through the queue, each one ended the Node
 * worker before it and started a worker of its own, and the next Node file started another that
 * imported the core again (17 workers in a run of 3, 22 s importing). Kept together, the run starts
 * one worker per environment and slot (6, 16 s importing).
 *
 * Vitest's own sequencer is loaded when the tests are sorted, not with the config, which `vite build`
 * reads too.
 */
export class EnvironmentsTogether implements TestSequencer {
  private readonly base: Promise<TestSequencer>;

  constructor(ctx: Vitest) {
    this.base = import('vitest/node').then(({ BaseSequencer }) => new BaseSequencer(ctx));
  }

  async shard(files: TestSpecification[]): Promise<TestSpecification[]> {
    return (await this.base).shard(files);
  }

  async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await (await this.base).sort(files);
    const dom = new Set(sorted.filter(wantsDom));
    return [...sorted.filter((file) => !dom.has(file)), ...dom];
  }
}
