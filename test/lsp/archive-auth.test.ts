// psconfig.archives.ipAllowedHosts over LSP: an http archive posting to another host's /logstash without an
// `Authorization` header is reported (perfsonar/archive apache-logstash.conf: Basic auth, or `Require ip` as the
// alternative) until the setting names its host as one that allows the testers by address; the same check as
// `psconfig-tools validate --ip-allowed-host HOST`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { LspClient } from './lsp-client';

let client: LspClient;
before(async () => {
  client = await LspClient.start();
});
after(async () => {
  await client.stop();
});

const text = `{
  "archives": { "central": { "archiver": "http", "data": { "schema": 2, "_url": "https://ma.example.net/logstash", "op": "put" } } },
  "addresses": { "a": { "address": "a.example.net" }, "b": { "address": "b.example.net" } },
  "groups": { "g": { "type": "mesh", "addresses": [ { "name": "a" }, { "name": "b" } ] } },
  "tests": { "t": { "type": "rtt", "spec": { "source": "{% address[0] %}", "dest": "{% address[1] %}" } } },
  "tasks": { "task": { "group": "g", "test": "t", "archives": [ "central" ] } }
}`;

const auth = (ds: Diagnostic[]): Diagnostic[] => ds.filter((d) => d.code === 'psconfig/archive-logstash-auth');

test('psconfig.archives.ipAllowedHosts silences the logstash credentials warning for the hosts it names', async () => {
  const uri = 'file:///tmp/psconfig-lsp-archive-auth/t.psconfig.json';
  const first = auth(await client.open(uri, text));
  assert.equal(first.length, 1);
  assert.equal(first[0].severity, 2, 'a warning');
  client.setPsconfigSettings({ archives: { ipAllowedHosts: ['MA.example.net'] } });
  await client.diagnosticsWhere(uri, (ds) => auth(ds).length === 0, 'no warning once the host allows by IP');
  client.setPsconfigSettings({ archives: { ipAllowedHosts: [] } });
  await client.diagnosticsWhere(uri, (ds) => auth(ds).length === 1, 'the warning back without the setting');
  client.close(uri);
});
