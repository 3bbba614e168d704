// The offline end-to-end runner behind `npm run test:e2e` (see test/e2e/run-code-server.sh, which installs,
// builds and packages first). It installs the packaged .vsix into a fresh code-server, runs the in-host mocha
// suite against that installed copy, then drives the workbench UI with Playwright and saves screenshots.
//   node out/test/e2e/host/main.js VSIX
// Environment: E2E_DIR (install from setup-code-server.sh), E2E_PASSES (comma list of vsix, ui, restricted, source;
// default vsix,ui), E2E_GREP (mocha grep), E2E_TIMEOUT_MS (per pass), KEEP_E2E_TMP=1 (keep scratch dirs).
import { mkdtempSync, rmSync, mkdirSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tmpdir, homedir } from 'node:os';
import type { Browser } from 'playwright-core';
import { CodeServer, findInstall } from './code-server';
import { launchChromium } from './browser';
import { createWorkspace, extensionHostEnv, repoRoot } from './workspace';
import { runInHostPass, type PassResult } from './in-host-pass';
import { runUiPass } from './ui-pass';
import { startArchives, type RunningArchives } from './archives';
import { checkInstalledPackage } from './package-check';

type PassName = 'vsix' | 'ui' | 'restricted' | 'source';
const EXTENSION_ID = 'perfsonar-tools.psconfig-vscode';

interface Tally {
  name: string;
  result: PassResult;
  ms: number;
}

function log(line: string): void {
  console.log(`[e2e ${new Date().toISOString().slice(11, 19)}] ${line}`);
}

async function main(): Promise<number> {
  const vsix = process.argv[2] ? resolve(process.argv[2]) : undefined;
  const passes = (process.env.E2E_PASSES ?? 'vsix,ui,restricted')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean) as PassName[];
  for (const p of passes)
    if (!['vsix', 'ui', 'restricted', 'source'].includes(p)) throw new Error(`unknown pass "${p}" in E2E_PASSES`);
  if (
    (passes.includes('vsix') || passes.includes('ui') || passes.includes('restricted')) &&
    (!vsix || !existsSync(vsix))
  )
    throw new Error(`the .vsix to test is missing: ${vsix ?? '(no argument)'}`);
  const timeoutMs = Number(process.env.E2E_TIMEOUT_MS ?? 600_000);
  const install = findInstall(process.env.E2E_DIR ?? join(homedir(), '.cache', 'psconfig-vscode-e2e'));
  const testsEntry = join(repoRoot, 'out', 'test', 'e2e', 'index.js');
  if (!existsSync(testsEntry)) throw new Error(`${testsEntry} is missing: run node scripts/build.mjs --tests`);

  const scratch = mkdtempSync(join(tmpdir(), 'psconfig-e2e-'));
  const screenshots = join(repoRoot, 'test-results', 'e2e');
  rmSync(screenshots, { recursive: true, force: true }); // no stale pictures from an earlier run
  mkdirSync(screenshots, { recursive: true });
  const tallies: Tally[] = [];
  let archives: RunningArchives | undefined;
  let browser: Browser | undefined;
  const servers: CodeServer[] = [];
  try {
    const arch = (archives = await startArchives());
    if (arch.problem) {
      console.log(`  ✖ ${arch.problem}`);
      tallies.push({ name: 'archive', result: { exitCode: 1, passed: 0, failed: 1, problem: arch.problem }, ms: 0 });
    } else log(`local archive at ${arch.archiveUrl}; unreachable archive at ${arch.unreachableUrl}`);
    const br = (browser = await launchChromium());
    log(`chromium ${br.version()}`);

    // One server per kind of extension source: the installed .vsix, or the source tree as a development extension.
    // `restricted`: workspace trust on, the workspace untrusted, and only the suite's restricted-workspace tests.
    const startServer = async (name: string, withVsix: boolean, restricted = false): Promise<CodeServer> => {
      const dir = join(scratch, `server-${name}`);
      const env = extensionHostEnv(arch);
      // Tells the suite to assert that the extension it exercises is the copy installed from the .vsix.
      if (withVsix) env.E2E_EXPECT_EXTENSIONS_DIR = join(dir, 'extensions');
      if (restricted) Object.assign(env, { E2E_RESTRICTED: '1', E2E_GREP: 'restricted workspace' });
      const server = new CodeServer({ install, dir, env, workspaceTrust: restricted });
      servers.push(server);
      if (withVsix) {
        log(await server.installExtension(vsix!));
        if (!restricted)
          tallies.push({
            name: 'package',
            result: checkInstalledPackage(server.extensionsDir, (l) => console.log(`  ${l}`)),
            ms: 0,
          });
      }
      const t0 = Date.now();
      await server.start();
      log(`code-server (${name}) listening on ${server.authority} after ${Date.now() - t0} ms; log ${server.logFile}`);
      return server;
    };

    let vsixServer: CodeServer | undefined;
    const runPass = async (pass: PassName): Promise<PassResult> => {
      if (pass === 'restricted') {
        const server = await startServer('restricted', true, true);
        const ws = createWorkspace(arch, scratch, { 'psconfig.jq.path': '/bin/false' });
        const installed = server.installedExtensionPath(EXTENSION_ID);
        log(`pass "restricted": workspace trust on, ${ws} untrusted; the restricted-workspace tests only`);
        const result = await runInHostPass({
          server,
          browser: br,
          workspaceDir: ws,
          testsEntry,
          developmentPath: installed,
          timeoutMs,
          consoleLog: join(scratch, 'console-restricted.log'),
          print: (l) => console.log(`  ${l}`),
        });
        await server.stop();
        return result;
      }
      if (pass === 'source') {
        const server = await startServer('source', false);
        const ws = createWorkspace(arch, scratch);
        log(`pass "source": suite against the source tree as a development extension, workspace ${ws}`);
        const result = await runInHostPass({
          server,
          browser: br,
          workspaceDir: ws,
          testsEntry,
          developmentPath: repoRoot,
          timeoutMs,
          consoleLog: join(scratch, 'console-source.log'),
          print: (l) => console.log(`  ${l}`),
        });
        await server.stop();
        return result;
      }
      vsixServer ??= await startServer('vsix', true);
      const ws = createWorkspace(arch, scratch);
      if (pass === 'vsix') {
        // The workbench runs extension tests only in a development host, so the development path is the
        // folder --install-extension unpacked the .vsix into: the suite exercises exactly the packaged files.
        const installed = vsixServer.installedExtensionPath(EXTENSION_ID);
        log(`pass "vsix": suite against ${installed} (installed from ${vsix}), workspace ${ws}`);
        return runInHostPass({
          server: vsixServer,
          browser: br,
          workspaceDir: ws,
          testsEntry,
          developmentPath: installed,
          timeoutMs,
          consoleLog: join(scratch, 'console-vsix.log'),
          print: (l) => console.log(`  ${l}`),
        });
      }
      log(`pass "ui": Playwright over the workbench, workspace ${ws}, screenshots in ${screenshots}`);
      return runUiPass({
        server: vsixServer,
        browser: br,
        workspaceDir: ws,
        screenshots,
        timeoutMs,
        archiveUrl: arch.archiveUrl,
        unreachableUrl: arch.unreachableUrl,
        print: (l) => console.log(`  ${l}`),
      });
    };

    for (const pass of passes) {
      const t0 = Date.now();
      // A pass that cannot even start (code-server, install, browser) is a failure of that pass; the others still run.
      const result = await runPass(pass).catch((err: unknown): PassResult => {
        const problem = err instanceof Error ? err.message : String(err);
        console.log(`  ✖ pass "${pass}" could not run: ${problem}`);
        return { exitCode: 1, passed: 0, failed: 1, problem };
      });
      const ms = Date.now() - t0;
      tallies.push({ name: pass, result, ms });
      log(
        `pass "${pass}": ${result.passed} passed, ${result.failed} failed in ${ms} ms${result.problem ? ` (${result.problem})` : ''}`,
      );
    }
  } finally {
    await browser?.close().catch(() => undefined);
    for (const s of servers) await s.stop();
    await archives?.close();
  }

  const passed = tallies.reduce((n, t) => n + t.result.passed, 0);
  const failed = tallies.reduce((n, t) => n + t.result.failed, 0);
  const ok = failed === 0 && passed > 0 && tallies.every((t) => t.result.exitCode === 0);
  if (ok && !process.env.KEEP_E2E_TMP) rmSync(scratch, { recursive: true, force: true });
  else log(`scratch kept for inspection: ${scratch}`);
  console.log(`${passed} passed, ${failed} failed`);
  return ok ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`e2e runner: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    console.log('0 passed, 1 failed');
    process.exit(1);
  },
);
