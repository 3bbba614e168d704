// In VS Code each lens runs the extension's own view, not the server's text-document fallback.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ServerCommands } from '../../../common/protocol';
import { extensionCommandFor, withExtensionCommand } from '../../../client/src/language/lens-commands';

const uri = 'file:///w/mesh.psconfig.json';

test('each lens command of the server becomes the extension’s command, with the arguments it takes', () => {
  assert.deepEqual(
    extensionCommandFor({
      title: '6 tasks for 3 agents',
      command: ServerCommands.showTasks,
      arguments: [{ uri, task: 't' }],
    }),
    { title: '6 tasks for 3 agents', command: 'psconfig.previewTasks', arguments: [uri] },
  );
  const dashboard = { uri, task: 't' };
  assert.deepEqual(extensionCommandFor({ command: ServerCommands.showDashboard, arguments: [dashboard] }), {
    command: 'psconfig.openDashboard',
    arguments: [dashboard],
  });
  const pair = { url: 'https://ma.example.net/esmond/perfsonar/archive/', inputSource: 'a', inputDestination: 'b' };
  assert.deepEqual(extensionCommandFor({ command: ServerCommands.openArchive, arguments: [pair] }), {
    command: 'psconfig.openArchiveExplorer',
    arguments: [pair],
  });
  const timeline = { uri, task: 't' };
  assert.deepEqual(
    extensionCommandFor({
      title: 'schedule: 6 runs a day, all fit',
      command: ServerCommands.showSchedule,
      arguments: [timeline],
    }),
    { title: 'schedule: 6 runs a day, all fit', command: 'psconfig.openSchedule', arguments: [timeline] },
  );
  // Other commands (and a title-only lens) are left alone.
  const other = { command: ServerCommands.previewTasks, arguments: [uri] };
  assert.equal(extensionCommandFor(other), other);
  const outdated = { command: '', title: '(outdated)' };
  assert.equal(extensionCommandFor(outdated), outdated);
});

test('the lens object itself is kept (it carries the data its resolve needs)', () => {
  class ProtocolLens {
    data = { uri };
    command?: { command: string; arguments?: unknown[] } = { command: ServerCommands.showDashboard, arguments: [] };
  }
  const lens = new ProtocolLens();
  assert.equal(withExtensionCommand(lens), lens);
  assert.equal(lens.command?.command, 'psconfig.openDashboard');
  const unresolved = new ProtocolLens();
  unresolved.command = undefined;
  assert.equal(withExtensionCommand(unresolved).command, undefined);
});
