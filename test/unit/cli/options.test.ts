// The option scanner the psconfig-tools commands share (cli/options.ts): how it splits and reads arguments, and the
// messages of the shared option parsers. The commands' own messages are tested through dist/cli.js in the other
// suites of this folder.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { jsonText } from '../../../common/json';
import {
  allowRemoteOption,
  flag,
  formatOption,
  jqMemoryOption,
  jqOption,
  listOption,
  onePositional,
  scanOptions,
  timeoutOption,
  wantsHelp,
  type CommandOptions,
  type JqArgs,
} from '../../../cli/options';

interface Args extends JqArgs {
  file?: string;
  agents: string[];
  format: 'text' | 'json';
  quiet: boolean;
  timeoutMs?: number;
}

const SPEC: CommandOptions<Args> = {
  options: {
    '--agent': listOption((a) => a.agents, '--agent needs an address'),
    '--format': formatOption(['text', 'json'], (a, f) => (a.format = f)),
    '--quiet': flag((a) => (a.quiet = true)),
    '-q': flag((a) => (a.quiet = true)),
    '--timeout': timeoutOption((a, ms) => (a.timeoutMs = ms)),
    '--jq': jqOption(),
    '--jq-memory-mb': jqMemoryOption(),
    '--allow-remote-includes': allowRemoteOption(),
  },
  positional: onePositional((first, second) => `only one TEMPLATE (got ${first} and ${second})`),
};

function scan(argv: string[], spec: CommandOptions<Args> = SPEC): Args | string {
  const a: Args = { agents: [], format: 'text', quiet: false, allowRemote: false };
  return scanOptions(argv, a, spec);
}

function parsed(argv: string[]): Args {
  const r = scan(argv);
  assert.equal(typeof r, 'object', `${argv.join(' ')}: ${jsonText(r)}`);
  return r as Args;
}

test('--name=value and --name value read the same', () => {
  assert.deepEqual(
    parsed(['t.json', '--format=json', '--timeout=2']),
    parsed(['t.json', '--format', 'json', '--timeout', '2']),
  );
  const a = parsed(['--format=json', 't.json', '--timeout', '2.5']);
  assert.equal(a.format, 'json');
  assert.equal(a.timeoutMs, 2500);
  assert.equal(a.file, 't.json');
});

test('only the first = splits, and an inline value may be empty', () => {
  assert.deepEqual(parsed(['--agent=a=b', 'x']).agents, ['a=b']);
  assert.equal(scan(['--agent=']), '--agent needs an address');
});

test('the value of --name value is the next argument, whatever it is', () => {
  assert.deepEqual(parsed(['--agent', '--quiet', 't.json']).agents, ['--quiet']);
  assert.equal(parsed(['--agent', '--quiet', 't.json']).quiet, false);
  assert.deepEqual(parsed(['--agent', '-', 't.json']).agents, ['-']);
});

test('a missing value: each option says what it needs', () => {
  assert.equal(scan(['t.json', '--agent']), '--agent needs an address');
  assert.equal(scan(['t.json', '--format']), '--format must be text or json, not (nothing)');
  assert.equal(scan(['t.json', '--timeout']), '--timeout needs a number of seconds');
  assert.equal(scan(['t.json', '--jq']), '--jq needs a path');
  assert.equal(scan(['t.json', '--jq-memory-mb']), '--jq-memory-mb needs a number of megabytes (0: no limit)');
});

test('bad values: the shared parsers refuse them with their messages', () => {
  assert.equal(scan(['--format', 'xml']), '--format must be text or json, not xml');
  assert.equal(scan(['--timeout', '0']), '--timeout needs a number of seconds');
  assert.equal(scan(['--timeout=-1']), '--timeout needs a number of seconds');
  assert.equal(scan(['--jq-memory-mb', '-1']), '--jq-memory-mb needs a number of megabytes (0: no limit)');
  assert.equal(parsed(['--jq-memory-mb', '0']).jqMemoryMb, 0);
  assert.equal(parsed(['--jq', '/usr/bin/jq', '--allow-remote-includes']).jq, '/usr/bin/jq');
  assert.equal(parsed(['--allow-remote-includes']).allowRemote, true);
});

test('--format lists three or more choices as a, b or c, and a command may show the value its own way', () => {
  const spec: CommandOptions<Args> = {
    ...SPEC,
    options: {
      '--format': formatOption(
        ['text', 'json', 'sarif'],
        () => undefined,
        (v) => `"${v ?? ''}"`,
      ),
    },
  };
  assert.equal(scan(['--format', 'x'], spec), '--format must be text, json or sarif, not "x"');
  assert.equal(scan(['--format'], spec), '--format must be text, json or sarif, not ""');
});

test('unknown options are refused as written; - is standard input, not an option', () => {
  assert.equal(scan(['t.json', '--bogus']), 'unknown option --bogus');
  assert.equal(scan(['t.json', '--bogus=1']), 'unknown option --bogus=1');
  assert.equal(scan(['t.json', '-x']), 'unknown option -x');
  assert.equal(scan(['t.json', '--']), 'unknown option --');
  assert.equal(scan(['-q=1']), 'unknown option -q=1', 'a single-dash option takes no inline value');
  assert.equal(parsed(['-']).file, '-');
  assert.equal(scan(['-', 't.json']), 'only one TEMPLATE (got - and t.json)');
});

test('the first problem wins', () => {
  assert.equal(scan(['--bogus', '--format', 'xml']), 'unknown option --bogus');
  assert.equal(scan(['--format', 'xml', '--bogus']), '--format must be text or json, not xml');
});

test('a flag refuses an inline value, even an empty one', () => {
  assert.equal(scan(['--quiet=no']), '--quiet takes no value (got --quiet=no)');
  assert.equal(scan(['t.json', '--quiet=']), '--quiet takes no value (got --quiet=)');
  assert.equal(
    scan(['--allow-remote-includes=yes']),
    '--allow-remote-includes takes no value (got --allow-remote-includes=yes)',
  );
  assert.equal(parsed(['--quiet']).quiet, true);
});

test('list options repeat, in order, in both spellings', () => {
  assert.deepEqual(parsed(['--agent', 'a', 't.json', '--agent=b', '--agent', 'c']).agents, ['a', 'b', 'c']);
});

test('names are looked up as the table spells them, not on Object.prototype', () => {
  assert.equal(parsed(['toString']).file, 'toString');
  assert.equal(scan(['--constructor']), 'unknown option --constructor');
});

test('a handler returning a problem stops the scan there', () => {
  const spec: CommandOptions<Args> = { ...SPEC, options: { ...SPEC.options, '--stop': { flag: () => 'stopped' } } };
  assert.equal(scan(['--stop', '--bogus'], spec), 'stopped');
  assert.equal(scan(['--bogus', '--stop'], spec), 'unknown option --bogus');
});

test('help is -h or --help as a whole argument, wherever it stands', () => {
  assert.equal(wantsHelp(['t.json', '--help']), true);
  assert.equal(wantsHelp(['--bogus', '-h']), true);
  assert.equal(wantsHelp(['--agent', '--help']), true, 'even where a value would stand');
  assert.equal(wantsHelp(['--help=1']), false);
  assert.equal(wantsHelp(['-help', 'help']), false);
});

test('done checks what needs every argument read, after the first problem of the scan', () => {
  const spec: CommandOptions<Args> = { ...SPEC, done: (a) => (a.file ? undefined : 'missing TEMPLATE') };
  assert.equal(scan([], spec), 'missing TEMPLATE');
  assert.equal(scan(['--bogus'], spec), 'unknown option --bogus');
  assert.equal((scan(['t.json'], spec) as Args).file, 't.json');
});
