// Entry point VS Code calls inside the extension host (extensionTestsPath): runs every *.e2e.js next to this
// file with mocha and prints the closing `N passed, N failed` line the CI log reader looks for. The returned
// promise rejects on any failure, so the host (and the runner) exit non-zero.
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { format } from 'node:util';
import Mocha from 'mocha';
import { OUTPUT_TAG } from './output-tag';

export function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'tdd', timeout: 90_000, color: false, reporter: 'spec' });
  if (process.env.E2E_GREP) mocha.grep(process.env.E2E_GREP);
  const files = readdirSync(__dirname)
    .filter((f) => f.endsWith('.e2e.js'))
    .sort();
  if (files.length === 0) return Promise.reject(new Error(`no *.e2e.js files in ${__dirname}`));
  for (const f of files) mocha.addFile(join(__dirname, f));
  // Tag the suite's own output so the code-server runner can tell it from the workbench's console chatter.
  // Mocha's reporters print through Base.consoleLog (captured when mocha loads), the tests through console.log.
  const base = Mocha.reporters.Base as unknown as { consoleLog: (...args: unknown[]) => void };
  const log = console.log;
  const tagged = (...args: unknown[]): void => log(`${OUTPUT_TAG}${format(...args)}`);
  base.consoleLog = tagged;
  console.log = tagged;
  return new Promise((resolve, reject) => {
    const runner = mocha.run((failures) => {
      console.log = log;
      const { passes, failures: failed } = runner.stats ?? { passes: 0, failures: failures };
      console.log(`${OUTPUT_TAG}${passes} passed, ${failed} failed`);
      // The electron runner cannot read the host's console, so the tally also goes to a file it names.
      if (process.env.E2E_RESULT_FILE)
        writeFileSync(process.env.E2E_RESULT_FILE, JSON.stringify({ passed: passes, failed }));
      if (failures > 0 || passes === 0) reject(new Error(`${failures} e2e test(s) failed, ${passes} passed`));
      else resolve();
    });
  });
}
