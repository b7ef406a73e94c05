import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as riverse from './index.ts';
import * as toolApi from './tool-api.ts';

// In a tool worker `import … from 'riverse'` is tool-api.ts alone; elsewhere it is index.ts. A tool
// file must get the same contract from both, or it would load in one place and fail in the other.
test('the package entry exports the whole tool contract, the very same values', () => {
  for (const [name, value] of Object.entries(toolApi))
    assert.equal((riverse as Record<string, unknown>)[name], value, `${name} is not exported by src/index.ts`);
});
