// Runs the mocha suite inside code-server's extension host. The web workbench reads extensionTestsPath (and
// optionally extensionDevelopmentPath) from the URL `payload` when the smoke-test driver is enabled, runs the
// suite's `run()`, forwards the host's console through window.codeAutomationLog and reports the exit code
// through window.codeAutomationExit — the mechanism VS Code's own browser integration tests use.
import { format } from 'node:util';
import { writeFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { WORKBENCH_LOAD_MS, type CodeServer } from './code-server';
import { collectConsole } from './browser';
import { OUTPUT_TAG } from '../output-tag';

export interface InHostPassOptions {
  server: CodeServer;
  browser: Browser;
  workspaceDir: string;
  /** Compiled suite entry (out/test/e2e/index.js). */
  testsEntry: string;
  /** Load the extension from this folder as a development extension; omit to test the installed one. */
  developmentPath?: string;
  timeoutMs: number;
  /** File that receives the workbench's console output. */
  consoleLog: string;
  /** Receives every line the suite prints. */
  print: (line: string) => void;
}

export interface PassResult {
  exitCode: number;
  passed: number;
  failed: number;
  /** Why the pass could not produce a result (host did not start, time-out); empty when it ran. */
  problem?: string;
}

const SUMMARY = /^(\d+) passed, (\d+) failed$/;

function showTail(chatter: string[], opts: InHostPassOptions): void {
  opts.print(`--- last lines of the workbench console (all of it: ${opts.consoleLog}) ---`);
  chatter.slice(-25).forEach((l) => opts.print(l.split('\n').slice(0, 3).join('\n')));
}

export async function runInHostPass(opts: InHostPassOptions): Promise<PassResult> {
  const payload: [string, string][] = [
    ['extensionTestsPath', opts.server.remoteUri(opts.testsEntry)],
    ['skipWelcome', 'true'],
  ];
  if (opts.developmentPath) payload.unshift(['extensionDevelopmentPath', opts.server.remoteUri(opts.developmentPath)]);

  const context = await opts.browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  let summary: { passed: number; failed: number } | undefined;
  const t0 = Date.now();
  let firstOutputAt: number | undefined;
  let summaryAt: number | undefined;
  // The workbench's and the host's other console output: kept in a file, its tail shown when the pass fails.
  const chatter: string[] = [];
  collectConsole(page, (line) => chatter.push(line));

  let finish: (code: number) => void = () => undefined;
  const exited = new Promise<number>((resolve) => (finish = resolve));
  await page.exposeFunction('codeAutomationLog', (type: string, args: unknown[]) => {
    // Arguments arrive unformatted (placeholders such as %s are applied here).
    const text = format(...(Array.isArray(args) ? args : [args]));
    if (!text.startsWith(OUTPUT_TAG)) {
      chatter.push(`{${type}} ${text}`);
      return;
    }
    if (firstOutputAt === undefined) {
      firstOutputAt = Date.now();
      opts.print(`(suite started ${firstOutputAt - t0} ms after the workbench was opened)`);
    }
    for (const line of text.slice(OUTPUT_TAG.length).split('\n')) {
      const m = SUMMARY.exec(line.trim());
      if (m) {
        summary = { passed: Number(m[1]), failed: Number(m[2]) };
        summaryAt = Date.now();
      } else opts.print(line);
    }
  });
  await page.exposeFunction('codeAutomationExit', (code: number) => {
    if (summaryAt) opts.print(`(extension host exited ${Date.now() - summaryAt} ms after the suite finished)`);
    finish(code);
  });

  const timer = setTimeout(() => finish(-1), opts.timeoutMs);
  try {
    await page.goto(opts.server.workbenchUrl(opts.workspaceDir, payload), { timeout: WORKBENCH_LOAD_MS });
    const exitCode = await exited;
    writeFileSync(opts.consoleLog, chatter.join('\n'));
    if (exitCode === -1) {
      showTail(chatter, opts);
      return {
        exitCode: 1,
        passed: summary?.passed ?? 0,
        failed: Math.max(1, summary?.failed ?? 0),
        problem: `the suite did not finish within ${opts.timeoutMs} ms`,
      };
    }
    if (!summary) {
      showTail(chatter, opts);
      // The host exited without the suite's closing line: it never started or crashed. That is a failure.
      return {
        exitCode: exitCode || 1,
        passed: 0,
        failed: 1,
        problem: `the extension host exited with ${exitCode} before the suite reported`,
      };
    }
    return { exitCode, passed: summary.passed, failed: summary.failed };
  } finally {
    clearTimeout(timer);
    await context.close().catch(() => undefined);
  }
}
