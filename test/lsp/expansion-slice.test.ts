// Agent-filtered and limited expansions are cut from the server's cached full expansion: every answer must equal
// what the engine itself returns for that filter (checked here by running the engine directly on the same text),
// on every example template, and a cut answer carries the full run's elapsedMs (proof it was not re-run).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {} from 'node:fs';
import type { ExpandTasksParams, ExpandTasksResult } from '../../common/protocol';
import { ExpandTasksRequest } from '../../common/protocol';
import { expandText } from '../../server/src/template/expand/from-text';
import { sliceExpansion } from '../../server/src/lsp/worker';
import { LspClient, serverForSuite, exampleText, exampleUri } from './lsp-client';
import { exampleFiles } from '../fixtures';

let client: LspClient;
const jqPath = process.env.JQ_PATH ?? '/usr/bin/jq';

serverForSuite((c) => (client = c));

const expand = (params: ExpandTasksParams): Promise<ExpandTasksResult> =>
  client.request<ExpandTasksResult>(ExpandTasksRequest.method, params);

/** As it travels over JSON-RPC (undefined fields dropped), without the timing. */
function withoutTime(r: ExpandTasksResult): Omit<ExpandTasksResult, 'elapsedMs'> {
  const { elapsedMs: _t, ...rest } = r;
  return JSON.parse(JSON.stringify(rest)) as Omit<ExpandTasksResult, 'elapsedMs'>;
}

/** Filters worth checking for a template: each agent alone, case changed, two agents, none matching, limits. */
function requestsFor(full: ExpandTasksResult): { agentAddresses: string[]; limit?: number }[] {
  const n = full.combinations.length;
  const out: { agentAddresses: string[]; limit?: number }[] = [
    { agentAddresses: [], limit: 0 },
    { agentAddresses: [], limit: 1 },
    { agentAddresses: [], limit: Math.floor(n / 2) },
    { agentAddresses: [], limit: n },
    { agentAddresses: ['no-such-agent.example.net'] },
  ];
  for (const a of full.agents.slice(0, 4))
    out.push({ agentAddresses: [a] }, { agentAddresses: [` ${a.toUpperCase()} `], limit: 1 });
  if (full.agents.length >= 2)
    out.push({ agentAddresses: [full.agents[1], full.agents[0]], limit: Math.max(1, Math.floor(n / 3)) });
  return out;
}

const examples = exampleFiles();

for (const name of examples) {
  test(`filtered expansions equal the engine's own filtered run: ${name}`, async () => {
    const uri = exampleUri(name);
    const text = exampleText(name);
    await client.open(uri, text);
    const engine = (agentAddresses: string[], limit?: number): Promise<ExpandTasksResult> =>
      expandText({ uri, version: 1, text, agentAddresses, limit, jqPath });
    try {
      const full = await expand({ uri });
      assert.deepEqual(withoutTime(full), withoutTime(await engine([])));
      for (const req of requestsFor(full)) {
        const got = await expand({ uri, ...req });
        const want = await engine(req.agentAddresses, req.limit);
        assert.deepEqual(withoutTime(got), withoutTime(want), `${name} ${JSON.stringify(req)}`);
        // Where the cut is exact the server answers from the full run without running the engine again.
        if (
          sliceExpansion(full, { agentAddresses: req.agentAddresses, limit: req.limit }) &&
          !text.includes('requesting-agent')
        ) {
          assert.equal(
            got.elapsedMs,
            full.elapsedMs,
            `${name} ${JSON.stringify(req)} was not served from the full run`,
          );
        }
      }
    } finally {
      client.close(uri);
    }
  });
}

test('a limited request first, then the full one: both come from one run', async () => {
  const name = 'psconfig--example-2-testbed.json';
  const uri = 'file:///tmp/psconfig-slice/limited-first.json';
  await client.open(uri, exampleText(name));
  try {
    const [limited, agentOnly, full] = await Promise.all([
      expand({ uri, limit: 3 }),
      expand({ uri, agentAddresses: ['nothing.example'] }),
      expand({ uri }),
    ]);
    assert.equal(limited.combinations.length, 3);
    assert.equal(agentOnly.combinations.length, 0);
    assert.equal(limited.elapsedMs, full.elapsedMs);
    assert.equal(agentOnly.elapsedMs, full.elapsedMs);
  } finally {
    client.close(uri);
  }
});

test('a limited answer stops before 4 MB of combinations, says so, and keeps the counts; an unlimited one is whole', async () => {
  // A 2 MB string in the archive of a 4-address mesh: 12 combinations, 24 MB of task JSON, as long strings repeated
  // in every combination make it; before the bound the preview answer carried all of it.
  const long = 'x'.repeat(2_000_000);
  const names = ['a', 'b', 'c', 'd'];
  const text = JSON.stringify({
    addresses: Object.fromEntries(names.map((n) => [n, { address: `${n}.example.net` }])),
    groups: { g: { type: 'mesh', addresses: names.map((name) => ({ name })) } },
    tests: {
      t: {
        type: 'throughput',
        spec: { source: '{% address[0] %}', dest: '{% address[1] %}', duration: 'PT10S' },
      },
    },
    archives: { a: { archiver: 'syslog', data: { ident: `${long}{% address[0] %}` } } },
    tasks: { task: { group: 'g', test: 't', archives: ['a'] } },
  });
  const uri = 'file:///tmp/long-strings.psconfig.json';
  await client.open(uri, text);
  try {
    const limited = await expand({ uri, limit: 200 });
    const size = JSON.stringify(limited.combinations).length;
    assert.ok(size <= 4 * 1024 * 1024, `answer ${size} characters`);
    assert.ok(limited.combinations.length > 0 && limited.combinations.length < 12, `${limited.combinations.length}`);
    assert.equal(limited.truncated, true);
    assert.match(
      limited.notes.map((n) => n.message).join('\n'),
      /The preview shows the first \d+ of 12 combinations: their task JSON is over the 4 MB/,
    );
    assert.equal(limited.tasks[0].count, 12, 'counts are those of every combination');
    const whole = await expand({ uri });
    assert.equal(whole.combinations.length, 12);
    assert.equal(whole.truncated, false);
  } finally {
    client.close(uri);
  }
});
