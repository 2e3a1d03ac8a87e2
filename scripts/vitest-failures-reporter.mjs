/**
 * Repeats, as the very last lines a unit run prints and on standard output, every file that failed
 * and why: a test's error, a hook's (beforeAll/afterAll fail a file whose tests all passed) and an
 * error thrown outside any test. The default reporter prints these to standard error and above its
 * summary, where a log cut to its tail (a CI page) loses them.
 */
const MAX_LINES = 14;

function describe(error) {
  const text = [error?.name && error.message ? `${error.name}: ${error.message}` : String(error?.message ?? error), error?.stack ?? '']
    .join('\n')
    .split('\n')
    .filter((line, index, lines) => line.trim() !== '' && !line.includes('/node_modules/') && lines.indexOf(line) === index);
  return text.slice(0, MAX_LINES).map((line) => `    ${line}`);
}

function* failuresOf(module) {
  for (const error of module.errors()) yield { where: 'the file (outside any test, or in a hook)', error };
  for (const suite of module.children.allSuites()) {
    for (const error of suite.errors()) yield { where: `suite "${suite.fullName}" (a hook)`, error };
  }
  for (const test of module.children.allTests()) {
    const result = test.result();
    if (result.state !== 'failed') continue;
    for (const error of result.errors ?? []) yield { where: `test "${test.fullName}"`, error };
  }
}

export default class FailuresReporter {
  onTestRunEnd(testModules, unhandledErrors) {
    const lines = [];
    for (const module of testModules) {
      if (module.state() !== 'failed') continue;
      lines.push(`FAILED ${module.relativeModuleId}`);
      let any = false;
      for (const { where, error } of failuresOf(module)) {
        any = true;
        lines.push(`  in ${where}:`, ...describe(error));
      }
      if (!any) lines.push('  (no error recorded: the worker running it may have exited)');
    }
    for (const error of unhandledErrors) lines.push('UNHANDLED ERROR', ...describe(error));
    if (lines.length === 0) return;
    process.stdout.write(`\n--- why the unit run failed ---\n${lines.join('\n')}\n`);
  }
}
