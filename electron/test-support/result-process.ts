/**
 * A separate process storing evaluation results on a Postgres database through the evaluations'
 * storage port, for the contract test of writers in two processes at once. Bundled by the test
 * (esbuild) and run with Node:
 *   node result-process.mjs <database url> <run id> <process: 0 or 1> <positions>
 * Each process stores a failure of variant 0 at every position (an eighth of a dollar, 1 + 2 tokens)
 * and an answer of variant 1 at every other position (a quarter), its half. Prints "done" once every
 * write resolved.
 */
import { PgDatabase } from '../core/store/postgres/database';
import { pgEvaluationStorage } from '../core/store/postgres/eval-store';

const [url, runId, process_, count] = process.argv.slice(2);
const me = Number(process_);
const db = await PgDatabase.open(url!);
const store = (await pgEvaluationStorage(db)).evalWork;
const common = { latency_ms: 10, content_chars: 5, answered_at: new Date().toISOString() };
const writes: Promise<void>[] = [];
for (let position = 0; position < Number(count); position += 1) {
  writes.push(
    store.putFailure(runId!, {
      ...common,
      variant: 0,
      position,
      input_tokens: 1,
      output_tokens: 2,
      cost: 0.125,
      error: 'upstream timed out',
      retryable: true,
      model_key: 'a',
    }),
  );
  if (position % 2 === me)
    writes.push(
      store.putAnswer(
        runId!,
        {
          ...common,
          variant: 1,
          position,
          answers: { urgent: true },
          raw_answers: null,
          methods: null,
          attempts: null,
          provider: 'p',
          input_tokens: 1,
          output_tokens: 1,
          cost: 0.25,
          error: null,
          model_key: 'b',
        },
        { replace: false },
      ),
    );
  // Some writes share a turn of the event loop, some do not, as a run's do.
  if (position % 7 === 0) await new Promise((resolve) => setImmediate(resolve));
}
await Promise.all(writes);
await db.close();
process.stdout.write('done\n');
