// `npm run test:vscode`: the same in-host suite in desktop VS Code through @vscode/test-electron 2.5 (the last
// line that runs on Node 20). Uses VSCODE_EXECUTABLE when set; otherwise test-electron downloads VS Code
// (VSCODE_VERSION, default stable), which needs internet. On Linux without a display, run it under xvfb-run.
// The extension is loaded from the source tree (extensionDevelopmentPath = repository root).
import { runTests } from '@vscode/test-electron';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { createWorkspace, extensionHostEnv, repoRoot } from './host/workspace';
import { startArchives, type RunningArchives } from './host/archives';

async function main(): Promise<number> {
  const scratch = mkdtempSync(join(tmpdir(), 'psconfig-e2e-electron-'));
  const resultFile = join(scratch, 'result.json');
  let archives: RunningArchives | undefined;
  try {
    archives = await startArchives();
    const workspace = createWorkspace(archives, scratch);
    const executable = process.env.VSCODE_EXECUTABLE;
    if (executable && !existsSync(executable)) throw new Error(`VSCODE_EXECUTABLE does not exist: ${executable}`);
    console.log(
      executable
        ? `VS Code: ${executable}`
        : `VS Code: downloading ${process.env.VSCODE_VERSION ?? 'stable'} (set VSCODE_EXECUTABLE to use an installed one)`,
    );
    const code = await runTests({
      ...(executable ? { vscodeExecutablePath: executable } : { version: process.env.VSCODE_VERSION ?? 'stable' }),
      extensionDevelopmentPath: repoRoot,
      extensionTestsPath: join(__dirname, 'index.js'),
      extensionTestsEnv: { ...extensionHostEnv(archives), E2E_RESULT_FILE: resultFile },
      launchArgs: [
        workspace,
        '--disable-extensions',
        '--skip-welcome',
        '--skip-release-notes',
        '--user-data-dir',
        join(scratch, 'user-data'),
      ],
    });
    return report(resultFile, code);
  } catch (err) {
    // A host that cannot start (no download, bad executable, crash) is a failure, never a skip.
    console.error(`test:vscode: ${err instanceof Error ? err.message : String(err)}`);
    return report(resultFile, 1);
  } finally {
    await archives?.close();
    if (!process.env.KEEP_E2E_TMP) rmSync(scratch, { recursive: true, force: true });
  }
}

/** Prints the closing tally from the suite's result file; no file means the suite never ran. */
function report(resultFile: string, exitCode: number): number {
  if (!existsSync(resultFile)) {
    console.log('0 passed, 1 failed');
    return 1;
  }
  const { passed, failed } = JSON.parse(readFileSync(resultFile, 'utf8')) as { passed: number; failed: number };
  console.log(`${passed} passed, ${failed} failed`);
  return failed > 0 || passed === 0 || exitCode !== 0 ? 1 : 0;
}

void main().then((code) => process.exit(code));
