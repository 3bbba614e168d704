// `psconfig-tools fix` and `validate` on archives that must deliver (issue 27), as users run them (dist/cli.js in a
// child process): the fix's report lists what the operator must still do, in the fixed text's lines: the Basic
// `Authorization` header or an IP rule an archive host needs for /logstash (perfsonar/archive @ c7e3b10,
// perfsonar-archive/perfsonar-archive/config/apache/apache-logstash.conf lines 17-53; psconfig_archive.sh lines
// 21-26), and archives left on localhost because RabbitMQ's guest works only over loopback (rabbitmq/rabbitmq-server
// deps/rabbit/Makefile: `{loopback_users, [<<"guest">>]}`); --ip-allowed-host takes a host off that list, in fix and
// in validate alike.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../../fixtures';

const cliJs = join(repoRoot(), 'dist', 'cli.js');
const dir = mkdtempSync(join(tmpdir(), 'cli-fix-report-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function cli(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [cliJs, ...args], {
    encoding: 'utf8',
    timeout: 120_000,
    cwd: dir,
    env: { ...process.env, JQ_PATH: process.env.JQ_PATH || '/usr/bin/jq' },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A perfSONAR 4 mesh: an esmond archive on ma.example.net, and a RabbitMQ guest archive on localhost; the rtt
 *  runs from address[1] (the lead, which archives) and is scheduled by address[0]. */
const template = `${JSON.stringify(
  {
    archives: {
      central: { archiver: 'esmond', data: { url: 'https://ma.example.net/esmond/perfsonar/archive/' } },
      queue: { archiver: 'rabbitmq', data: { _url: 'amqp://guest:guest@localhost//' } },
    },
    addresses: { x: { address: 'x.example.net' }, y: { address: 'y.example.net' } },
    groups: { g: { type: 'mesh', addresses: [{ name: 'x' }, { name: 'y' }] } },
    tests: { t: { type: 'rtt', spec: { source: '{% address[1] %}', dest: '{% address[0] %}' } } },
    tasks: { task: { group: 'g', test: 't', archives: ['central', 'queue'] } },
  },
  null,
  2,
)}\n`;

test('fix: the report lists what is left to do, with lines of the fixed text; --ip-allowed-host takes a host off', () => {
  const file = join(dir, 'mesh.json');
  writeFileSync(file, template);
  const r = cli(['fix', file, '--write']);
  assert.equal(r.code, 0, r.stderr);
  const fixed = readFileSync(file, 'utf8');
  assert.ok(!/authorization/i.test(fixed), 'no credential written');
  assert.ok(fixed.includes('"_url": "amqp://guest:guest@localhost//"'), 'the guest archive stays on localhost');
  const lines = fixed.split('\n');
  const urlLine = lines.findIndex((l) => l.includes('"_url": "https://ma.example.net/logstash"')) + 1;
  const amqpLine = lines.findIndex((l) => l.includes('"_url": "amqp://guest:guest@localhost//"')) + 1;
  assert.ok(urlLine > 0 && amqpLine > 0);
  const todo = r.stderr.split('\n').filter((l) => l.includes(': to do '));
  assert.equal(todo.length, 2, r.stderr);
  assert.match(
    todo[0],
    new RegExp(
      `^${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:${urlLine}:\\d+: to do psconfig/archive-logstash-auth: archive \`central\` \\(https://ma\\.example\\.net/logstash\\): add the Basic \`Authorization\` header of ma\\.example\\.net .* or allow the testers' addresses there .* --ip-allowed-host ma\\.example\\.net$`,
    ),
  );
  assert.match(
    todo[1],
    new RegExp(
      `:${amqpLine}:\\d+: to do psconfig/archive-loopback-credentials: archive \`queue\` left on localhost: RabbitMQ's guest user works only over loopback`,
    ),
  );
  assert.match(r.stderr, /psconfig-tools fix: .*mesh\.json: 1 fix \(esmond-archiver 1\), written; 2 to do by hand\n$/);

  // the archive host allows the testers by address: only the loopback note is left; fix on its output changes nothing
  const again = cli(['fix', file, '--ip-allowed-host', 'ma.example.net']);
  assert.equal(again.code, 0, again.stderr);
  assert.equal(again.stdout, '');
  assert.deepEqual(
    again.stderr
      .split('\n')
      .filter((l) => l.includes(': to do '))
      .map((l) => l.split(': to do ')[1].split(':')[0]),
    ['psconfig/archive-loopback-credentials'],
  );
  assert.match(again.stderr, /nothing to fix; 1 to do by hand\n$/);
});

test('validate: the warning on the converted archive, gone with --ip-allowed-host; bad values exit 2', () => {
  const file = join(dir, 'fixed.json');
  writeFileSync(file, template);
  assert.equal(cli(['fix', file, '--write']).code, 0);
  const plain = cli(['validate', file, '--no-jq']);
  assert.match(
    plain.stdout,
    /warning psconfig\/archive-logstash-auth Archive `central` posts to ma\.example\.net's \/logstash/,
  );
  assert.match(
    plain.stdout,
    /information psconfig\/archive-loopback-credentials Archive `queue` is left on `localhost`/,
  );
  const allowed = cli(['validate', file, '--no-jq', '--ip-allowed-host', 'other.example.net,MA.example.net']);
  assert.ok(!allowed.stdout.includes('archive-logstash-auth'), allowed.stdout);
  for (const args of [
    ['validate', file, '--ip-allowed-host'],
    ['validate', file, '--ip-allowed-host', 'https://ma.example.net/'],
    ['fix', file, '--ip-allowed-host', ''],
  ]) {
    const r = cli(args);
    assert.equal(r.code, 2, args.join(' '));
    assert.match(r.stderr, /--ip-allowed-host/);
  }
});
