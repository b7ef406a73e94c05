import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  approvalSetting,
  approvalSettingProblem,
  needsApproval,
  type ApprovalSetting,
} from '../tools/approval-policy.ts';
import { validateManifest } from './validate-manifest.ts';

describe('approval policy', () => {
  test('always and never; a rule holds when the parameter matches', () => {
    const rule: ApprovalSetting = { when: { param: 'command', matches: '^rm' } };
    assert.equal(needsApproval('always', {}), true);
    assert.equal(needsApproval('never', { command: 'rm -rf /' }), false);
    assert.equal(needsApproval(rule, { command: 'rm -rf /' }), true);
    assert.equal(needsApproval(rule, { command: 'ls' }), false);
    assert.equal(needsApproval(rule, {}), false, 'a parameter left out never matches');
    // A list is tested item by item, so ["rm", "-rf"] cannot hide "rm" inside JSON quotes.
    assert.equal(needsApproval(rule, { command: ['rm', '-rf'] }), true);
    assert.equal(needsApproval({ when: { param: 'n', matches: '^5$' } }, { n: 5 }), true, 'a number is tested as JSON');
    const any: ApprovalSetting = {
      when: [
        { param: 'path', matches: '^/etc' },
        { param: 'mode', matches: 'w' },
      ],
    };
    assert.equal(needsApproval(any, { path: '/tmp/x', mode: 'w' }), true, 'any condition of a list');
    assert.equal(needsApproval(any, { path: '/tmp/x', mode: 'r' }), false);
  });

  test('the config overrides the manifest; an invalid setting in the config counts as always', () => {
    const manifest = { name: 'shell', approval: 'always' as const };
    assert.equal(approvalSetting(manifest, {}), 'always');
    assert.equal(approvalSetting({ name: 'clock' }, {}), 'never', 'a tool says nothing: no approval');
    assert.equal(approvalSetting(manifest, { tools: { shell: { approval: 'never' } } }), 'never');
    assert.deepEqual(
      approvalSetting({ name: 'clock' }, { tools: { clock: { approval: { when: { param: 'zone', matches: 'x' } } } } }),
      { when: { param: 'zone', matches: 'x' } },
    );
    assert.equal(approvalSetting({ name: 'clock' }, { tools: { clock: { approval: 'sometimes' } } }), 'always');
    assert.equal(
      approvalSetting({ name: 'clock' }, { tools: { clock: { approval: { when: { param: 'x', matches: '(' } } } } }),
      'always',
    );
  });

  test('problems say where and what was found', () => {
    assert.equal(approvalSettingProblem('always', 'approval'), undefined);
    assert.deepEqual(approvalSettingProblem('yes', 'approval'), { at: 'approval', got: '"yes"' });
    assert.deepEqual(approvalSettingProblem({ when: [] }, 'approval'), { at: 'approval.when', got: '[]' });
    assert.deepEqual(approvalSettingProblem({ when: [{ param: 'a', matches: 'x' }, { param: 'b' }] }, 'approval'), {
      at: 'approval.when[1].matches',
      got: 'undefined',
    });
    assert.match(
      approvalSettingProblem({ when: { param: 'a', matches: '[' } }, 'approval')?.regexError ?? '',
      /Invalid regular expression/,
    );
    assert.deepEqual(
      approvalSettingProblem({ when: { param: 'a', matches: 'x', flags: 'i' } }, 'approval')?.at,
      'approval.when',
    );
  });

  test('the manifest: an invalid approval is an error, a rule on an unknown parameter a warning', () => {
    const base = {
      name: 'shell',
      description: 'Runs a program.',
      parameters: { command: 'the program' },
      examples: ['run ls', 'list files'],
    };
    assert.deepEqual(validateManifest({ ...base, approval: 'always' }), []);
    const invalid = validateManifest({ ...base, approval: 'ask' });
    assert.deepEqual(
      invalid.map((p) => [p.severity, p.path, p.text?.id]),
      [['error', 'approval', 'manifest.approval-invalid']],
    );
    const regex = validateManifest({ ...base, approval: { when: { param: 'command', matches: '(' } } });
    assert.deepEqual(
      regex.map((p) => [p.severity, p.path, p.text?.id]),
      [['error', 'approval.when.matches', 'manifest.approval-regex']],
    );
    const unknown = validateManifest({ ...base, approval: { when: { param: 'comand', matches: '^rm' } } });
    assert.deepEqual(
      unknown.map((p) => [p.severity, p.text?.id]),
      [['warning', 'manifest.approval-unknown-param']],
    );
    assert.match(unknown[0]!.message, /did you mean "command"/);
  });
});
