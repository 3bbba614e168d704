// The diff's diagnostics are the same diagnostic in both versions wherever their lines moved, and it lists the errors
// a change resolved. Expectations by hand from the two texts below.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { diffObjs } from './helpers';

// A duplicate key (a warning whose message names both lines) and a test with an unknown tool (an error on `tools`).
const OLD = `{
  "addresses": { "a": { "address": "a.example.net" }, "b": { "address": "b.example.net" } },
  "groups": { "g": { "type": "mesh", "addresses": [{ "name": "a" }, { "name": "b" }] } },
  "tests": { "t": { "type": "rtt", "spec": { "dest": "{% address[1] %}", "count": 3, "count": 4 } } },
  "tasks": { "x": { "group": "g", "test": "t", "tools": ["no-such-tool"] } }
}`;
// Three lines of metadata above everything (every line moves down by 3) and the tool fixed.
const NEW = OLD.replace('{\n', '{\n  "_meta": {\n    "display-name": "moved"\n  },\n').replace(
  '"no-such-tool"',
  '"ping"',
);

test('a warning whose message names lines that moved is not new; the error the change fixed is listed as resolved', async () => {
  const d = await diffObjs(OLD, NEW);
  // Old: the duplicate key and "no tool `no-such-tool`" warnings; new: the duplicate key only.
  assert.equal(d.old.diagnostics?.warning, 2);
  assert.equal(d.new.diagnostics?.warning, 1);
  assert.deepEqual(d.newDiagnostics, []);
  // The old version's error on `tools` (line 5 of OLD), none in the new version.
  const resolved = d.resolvedDiagnostics.map((x) => [x.code, x.line, x.path]);
  assert.deepEqual(resolved, [['psconfig/tool-cannot-run', 5, 'tasks/x/tools']]);
});

test('the same wording at another place is a new diagnostic', async () => {
  // The duplicate moves from `count` to `dest`: a duplicate-key warning on another path.
  const moved = OLD.replace('"count": 3, "count": 4', '"dest": "{% address[1] %}", "count": 4');
  const d = await diffObjs(OLD, moved);
  assert.ok(
    d.newDiagnostics.some((x) => x.code === 'psconfig/duplicate-key' && x.path === 'tests/t/spec/dest'),
    JSON.stringify(d.newDiagnostics),
  );
});
