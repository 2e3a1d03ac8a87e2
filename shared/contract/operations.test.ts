import { describe, expect, it } from 'vitest';
import { OPERATION_NAMES, httpOperationPath, ipcChannel } from './names';
import { OPERATIONS } from './operations';

describe('operation table', () => {
  it('is the boundary between renderer and core (changes show up in review)', () => {
    const table = OPERATION_NAMES.map(
      (name) => `${OPERATIONS[name].kind.padEnd(8)} ${name.padEnd(20)} ${ipcChannel(name).padEnd(30)} POST ${httpOperationPath(name)}`,
    );
    expect(table).toMatchSnapshot();
  });
  it('declares every name once', () => {
    expect(new Set(OPERATION_NAMES).size).toBe(OPERATION_NAMES.length);
    expect(Object.keys(OPERATIONS).sort()).toEqual([...OPERATION_NAMES].sort());
  });
  it('no operation output carries a provider key field', () => {
    const outputs = OPERATION_NAMES.map((name) => JSON.stringify((OPERATIONS[name].output as { toJSONSchema?: () => unknown }).toJSONSchema?.() ?? {}));
    for (const [index, schema] of outputs.entries()) {
      // A new gateway key is shown once to its creator: the one output that may carry a key.
      if (OPERATION_NAMES[index] === 'apiKeys.create') {
        expect(schema).toMatch(/"key":/);
        continue;
      }
      expect(schema, OPERATION_NAMES[index]).not.toMatch(/"key":/);
    }
  });
});
