/**
 * A results file of an earlier `--results` (or the Evaluations screen's JSONL export): one line per
 * item and model. Read and checked line by line (a file from disk is a trust boundary); its first
 * line may carry the run it came from (`run`: name, time, questions, provider), written by `--results`.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { z } from 'zod';
import { QuestionSchema } from '../../../shared/schemas/question';
import { bad } from './bad-input';

const ResultsLineSchema = z.looseObject({
  id: z.string(),
  expected: z.record(z.string(), z.unknown()).optional(),
  model: z.string(),
  variant: z.number().int().min(0),
  ok: z.boolean(),
  answers: z.record(z.string(), z.unknown()),
  raw_answers: z.record(z.string(), z.unknown()).nullable().optional(),
  methods: z.record(z.string(), z.string()).nullable().optional(),
  attempts: z.array(z.unknown()).nullable().optional(),
  provider: z.string().nullable().optional(),
  usage: z.object({ input_tokens: z.number(), output_tokens: z.number(), cost: z.number().nullable() }),
  latency_ms: z.number(),
  error: z.string().nullable().optional(),
});
export type ResultsLine = z.infer<typeof ResultsLineSchema>;

const RecordedRunSchema = z.object({
  id: z.string(),
  name: z.string(),
  created_at: z.string(),
  questions: z.record(z.string(), QuestionSchema),
  provider: z.unknown().optional(),
});
export type RecordedRun = z.infer<typeof RecordedRunSchema>;

export interface ResultsFile {
  name: string;
  lines: ResultsLine[];
  run: RecordedRun | null;
}

export function readResultsFile(path: string): ResultsFile {
  const name = basename(path);
  const lines: ResultsLine[] = [];
  let run: RecordedRun | null = null;
  const text = readFileSync(path, 'utf8');
  for (const [i, raw] of text.split('\n').entries()) {
    if (raw.trim() === '') continue;
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch (error) {
      bad(`--baseline ${name}: line ${i + 1} is not JSON: ${(error as Error).message}`, false);
    }
    const parsed = ResultsLineSchema.safeParse(json);
    if (!parsed.success)
      bad(
        `--baseline ${name}: line ${i + 1} is not a results line of --results: ${parsed.error.issues.map((x) => `${x.path.join('.') || '(line)'}: ${x.message}`).join('; ')}`,
        false,
      );
    lines.push(parsed.data);
    const recorded = lines.length === 1 ? RecordedRunSchema.safeParse((json as { run?: unknown }).run) : null;
    if (recorded?.success) run = recorded.data;
  }
  if (lines.length === 0) bad(`--baseline ${name}: no results in it`, false);
  return { name, lines, run };
}

/** The first line of a results file, with the run it came from beside its own fields. */
export function withRecordedRun(line: string, run: RecordedRun): string {
  return `${JSON.stringify({ ...(JSON.parse(line) as object), run })}\n`;
}
