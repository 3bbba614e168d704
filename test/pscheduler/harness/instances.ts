// Real pScheduler instances for tests: one database, one loopback address and one set of processes (API server,
// ticker, runner, scheduler: pscheduler-server/daemons, default options) per instance, so that each instance has a
// timeline of its own. Reusable: `await prepareHarness()` once, then `startInstances(...)` returns the instances'
// API URLs and a stop function.
//
//   const harness = await prepareHarness();                       // packages, build, PostgreSQL (idempotent)
//   const group = await startInstances({ instances: [{ name: 'a', host: 21 }], horizon: 'PT3M' });
//   group.instances[0].url                                        // https://127.0.0.21/pscheduler
//   await group.stop(); await harness.stop();
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync, cpSync } from 'node:fs';
import { join } from 'node:path';
import { startGroup, type GroupProcess } from './process-group';
import { pschedulerEnv, prefixDir, runScript, harnessDir } from './prefix';
import { getJson, pollUntil } from './rest';

export interface Instance {
  name: string;
  address: string;
  /** The API's base URL, e.g. https://127.0.0.21/pscheduler */
  url: string;
  database: string;
  /** Working directory: dsn, API copy, logs. */
  dir: string;
}

export interface InstanceGroup {
  instances: Instance[];
  /** Stops every process of every instance (process groups: workers and tool runs too). */
  stop(): Promise<void>;
}

export interface Harness {
  prefix: string;
  /** Stops what prepareHarness started (the /dev/log receiver, PostgreSQL). */
  stop(): Promise<void>;
}

const PGPORT = process.env.PSCHEDULER_PGPORT || '5477';

/**
 * Installs the Debian packages (when missing; needs root), builds pScheduler and pSConfig into the prefix (when the
 * vendored sources or the scripts changed) and starts the harness's PostgreSQL cluster.
 */
export async function prepareHarness(log: (line: string) => void = () => {}): Promise<Harness> {
  const t0 = Date.now();
  log((await runScript('install-packages.sh', [], 20 * 60_000)).trim());
  log((await runScript('build-pscheduler.sh', [], 10 * 60_000)).trim());
  await runScript('pg-cluster.sh', ['start'], 2 * 60_000);
  const prefix = prefixDir();
  mkdirSync(join(prefix, 'log'), { recursive: true });
  let sink: GroupProcess | undefined;
  if (!existsSync('/dev/log')) {
    sink = startGroup(
      'devlog-sink',
      '/usr/bin/python3',
      [join(harnessDir, 'devlog-sink.py'), join(prefix, 'log', 'syslog')],
      {
        env: pschedulerEnv(),
        log: join(prefix, 'log', 'devlog-sink.out'),
      },
    );
    await pollUntil('/dev/log receiver', async () => (existsSync('/dev/log') ? true : undefined), 15_000, 100);
  }
  log(`harness ready in ${((Date.now() - t0) / 1000).toFixed(1)} s (prefix ${prefix})`);
  return {
    prefix,
    async stop() {
      await sink?.stop(5_000);
      await runScript('pg-cluster.sh', ['stop'], 2 * 60_000);
    },
  };
}

export interface StartOptions {
  /** One instance per entry: its name (letters, digits, dashes) and address 127.0.0.host. */
  instances: { name: string; host: number }[];
  /** configurables.schedule_horizon of every instance (ISO 8601, e.g. PT3M; a real host has P1D). */
  horizon: string;
  /** Deadline for each API to answer after its start. */
  readyMs?: number;
  /** Also start the archiver daemon (daemons/archiver, built by build-pscheduler.sh): runs' archivings happen. */
  archiver?: boolean;
}

/** Creates each instance's database (dropping an old one of the same name) and starts its processes. */
export async function startInstances(options: StartOptions): Promise<InstanceGroup> {
  const prefix = prefixDir();
  const processes: GroupProcess[] = [];
  const stop = async (): Promise<void> => {
    await Promise.all(processes.map((p) => p.stop()));
  };
  try {
    const instances = await Promise.all(
      options.instances.map(({ name, host }) => startOne(prefix, name, host, options, processes)),
    );
    return { instances, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}

async function startOne(
  prefix: string,
  name: string,
  host: number,
  options: StartOptions,
  processes: GroupProcess[],
): Promise<Instance> {
  if (!/^[a-z0-9-]+$/.test(name)) throw new Error(`instance name ${name}: letters, digits and dashes only`);
  if (!(host >= 2 && host <= 254)) throw new Error(`instance ${name}: 127.0.0.${host} is not a usable address`);
  const address = `127.0.0.${host}`;
  const database = `pscheduler_${name.replace(/-/g, '_')}`;
  const dir = join(prefix, 'inst', name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'tmp'), { recursive: true });
  await runScript('pg-cluster.sh', ['create-db', database, options.horizon], 5 * 60_000);

  const dsn = join(dir, 'dsn');
  writeFileSync(dsn, `host=${prefix}/pgrun port=${PGPORT} dbname=${database} user=pscheduler\n`);
  // The API package with this instance's files, as api-server/Makefile substitutes its .raw files.
  const api = join(dir, 'api', 'pschedulerapiserver');
  cpSync(join(prefix, 'api'), api, { recursive: true });
  for (const raw of readdirSync(api).filter((f) => f.endsWith('.raw'))) {
    const text = readFileSync(join(api, raw), 'utf8')
      .replaceAll('__DSN_FILE__', dsn)
      .replaceAll('__LIMITS_FILE__', join(prefix, 'etc', 'limits.conf'))
      .replaceAll('__RUN_DIR__', join(dir, 'tmp'));
    writeFileSync(join(api, raw.slice(0, -'.raw'.length)), text);
  }
  // python-pscheduler's api_local_host() reads PSCHEDULER_LOCALHOST (api.py): the instance's own address, so the
  // tasks' participants and hrefs name it.
  const env = pschedulerEnv({ PSCHEDULER_LOCALHOST: address, TMPDIR: join(dir, 'tmp') });
  const url = `https://${address}/pscheduler`;
  processes.push(
    startGroup(
      `${name}/api`,
      '/usr/bin/python3',
      [
        join(harnessDir, 'serve-api.py'),
        join(dir, 'api'),
        address,
        '443',
        join(prefix, 'etc', 'cert.pem'),
        join(prefix, 'etc', 'key.pem'),
      ],
      { env, log: join(dir, 'api.log') },
    ),
  );
  await pollUntil(
    `${name}: API at ${url}`,
    async () => ((await getJson(`${url}/api`, 5_000)) !== undefined ? true : undefined),
    options.readyMs ?? 90_000,
  );
  const daemons = join(prefix, 'src', 'pscheduler-server', 'pscheduler-server', 'daemons');
  const started = options.archiver ? ['ticker', 'runner', 'scheduler', 'archiver'] : ['ticker', 'runner', 'scheduler'];
  for (const daemon of started) {
    const log = join(dir, `${daemon}.log`);
    const args = [join(daemons, daemon), '--dsn', `@${dsn}`, '--verbose'];
    processes.push(
      daemon === 'archiver'
        ? // The archiver exits on a warm boot (daemons/archiver.raw: main_program() returns, nothing loops), which the
          // ticker asks for soon after the start; systemd brings it back (service-template.raw: Restart=always,
          // RestartSec's default 100 ms), and so does this loop, the group's leader.
          startGroup(
            `${name}/${daemon}`,
            '/bin/sh',
            ['-c', 'while :; do /usr/bin/python3 "$@"; sleep 0.1; done', 'sh', ...args],
            {
              env,
              log,
            },
          )
        : startGroup(`${name}/${daemon}`, '/usr/bin/python3', args, { env, log }),
    );
  }
  // Each daemon's Log prints "Started" once it is up (python-pscheduler log.py); bounded wait for all of them.
  await pollUntil(
    `${name}: daemons started`,
    async () =>
      started.every((d) => {
        const f = join(dir, `${d}.log`);
        return existsSync(f) && readFileSync(f, 'utf8').includes('Started');
      })
        ? true
        : undefined,
    options.readyMs ?? 90_000,
  );
  return { name, address, url, database, dir };
}
