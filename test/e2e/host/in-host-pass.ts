// Runs the mocha suite inside code-server's extension host. The web workbench reads extensionTestsPath (and
// optionally extensionDevelopmentPath) from the URL `payload` when the smoke-test driver is enabled, runs the
// suite's `run()`, forwards the host's console through window.codeAutomationLog and reports the exit code
// through window.codeAutomationExit — the mechanism VS Code's own browser integration tests use.
import type { Browser } from 'playwright-core';
import type { CodeServer } from './code-server';
import { collectConsole } from './browser';

export interface InHostPassOptions {
  server: CodeServer;
  browser: Browser;
  workspaceDir: string;
  /** Compiled suite entry (out/test/e2e/index.js). */
  testsEntry: string;
  /** Load the extension from this folder as a development extension; omit to test the installed one. */
  developmentPath?: string;
  timeoutMs: number;
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

export async function runInHostPass(opts: InHostPassOptions): Promise<PassResult> {
  const payload: [string, string][] = [['extensionTestsPath', opts.server.remoteUri(opts.testsEntry)], ['skipWelcome', 'true']];
  if (opts.developmentPath) payload.unshift(['extensionDevelopmentPath', opts.server.remoteUri(opts.developmentPath)]);

  const context = await opts.browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  let summary: { passed: number; failed: number } | undefined;
  const diagnostics: string[] = [];
  collectConsole(page, (line) => diagnostics.push(line));

  let finish: (code: number) => void = () => undefined;
  const exited = new Promise<number>((resolve) => (finish = resolve));
  await page.exposeFunction('codeAutomationLog', (_type: string, args: unknown[]) => {
    const text = (Array.isArray(args) ? args : [args]).map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' ');
    for (const line of text.split('\n')) {
      const m = SUMMARY.exec(line.trim());
      if (m) summary = { passed: Number(m[1]), failed: Number(m[2]) };
      opts.print(line);
    }
  });
  await page.exposeFunction('codeAutomationExit', (code: number) => finish(code));

  const timer = setTimeout(() => finish(-1), opts.timeoutMs);
  try {
    await page.goto(opts.server.workbenchUrl(opts.workspaceDir, payload));
    const exitCode = await exited;
    if (exitCode === -1) {
      diagnostics.slice(-20).forEach(opts.print);
      return { exitCode: 1, passed: summary?.passed ?? 0, failed: Math.max(1, summary?.failed ?? 0), problem: `the suite did not finish within ${opts.timeoutMs} ms` };
    }
    if (!summary) {
      diagnostics.slice(-20).forEach(opts.print);
      // The host exited without the suite's closing line: it never started or crashed. That is a failure.
      return { exitCode: exitCode || 1, passed: 0, failed: 1, problem: `the extension host exited with ${exitCode} before the suite reported` };
    }
    return { exitCode, passed: summary.passed, failed: summary.failed };
  } finally {
    clearTimeout(timer);
    await context.close().catch(() => undefined);
  }
}
