// What each host really runs, inside VS Code: hosts-mesh.psconfig.json (the live suite's template-new.json, agents
// 127.0.0.40 and .41) read from replays of what two real pScheduler instances answered (test/pscheduler-replay/, the
// recording test/fixtures/pscheduler-hosts/wire.json, its times moved to now; the workspace's psconfig.hosts.urls
// point at them). The expectations are what test/pscheduler/hosts-live.ts posted to those instances: on .40 `archived`
// twice (a renewal), `commented` from the older template (its starting-comment differs), `retired` from the older
// template only (an idle task: extra); on .41 `busy-1` and `busy-2` (non-starters: two exclusive 21-s runs every
// 30 s) and never `lonely` (missing).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { lensOf, openTemplate, positionOf, waitFor } from './helpers';

const TEMPLATE = 'hosts-mesh.psconfig.json';

/** client/src/hosts/hosts-view.ts HostsViewSummary, as the suite reads it. */
interface Summary {
  template: string;
  hosts: string[];
  error?: string;
  problems: string[];
  result?: {
    hosts: {
      host: string;
      error?: string;
      entries: {
        verdict: string;
        task?: string;
        lifetime?: string;
        testType?: string;
        runs?: { nonStarters: number };
      }[];
    }[];
    problems: boolean;
  };
  tree: { label: string; description?: string; icon: string; children?: Summary['tree'] }[];
}

suite('hosts', () => {
  test('Read Hosts compares each agent’s pScheduler with the template: every verdict of the recorded hosts', async () => {
    const { doc } = await openTemplate(TEMPLATE);
    const s = await vscode.commands.executeCommand<Summary>('psconfig.readHosts', doc.uri);
    assert.ok(s, 'psconfig.readHosts returned what the view shows');
    assert.equal(s.error, undefined, s.error);
    assert.deepEqual(s.problems, []);
    assert.deepEqual(s.hosts, ['127.0.0.40', '127.0.0.41'], 'the template’s agents, in first-seen order');
    const verdicts = (host: string): string[] =>
      s
        .result!.hosts.find((h) => h.host === host)!
        .entries.map(
          (e) =>
            `${e.verdict}${e.lifetime && e.lifetime !== 'current' ? `/${e.lifetime}` : ''} ${e.task ?? e.testType}`,
        );
    assert.deepEqual(verdicts('127.0.0.40'), ['present/renewing archived', 'different commented', 'extra idle']);
    assert.deepEqual(verdicts('127.0.0.41').sort(), ['missing lonely', 'present busy-1', 'present busy-2']);
    const busy = s.result!.hosts[1].entries.filter((e) => e.task?.startsWith('busy'));
    assert.ok(
      busy.some((e) => (e.runs?.nonStarters ?? 0) > 0),
      'busy-1/busy-2 had non-starters',
    );
    assert.equal(s.result!.problems, true);

    // The view: two hosts, each with its tasks; `lonely` says it is missing.
    assert.deepEqual(
      s.tree.map((n) => n.label),
      ['127.0.0.40', '127.0.0.41'],
    );
    const lonely = s.tree[1].children?.find((n) => n.label.startsWith('lonely'));
    assert.ok(lonely, JSON.stringify(s.tree[1]));
    assert.match(lonely.description ?? '', /^missing/);
    assert.equal(lonely.icon, 'error');
    // Under `archived`: the runs read, each with its state.
    const archived = s.tree[0].children?.find((n) => n.label.startsWith('archived'));
    assert.ok(
      archived?.children?.some((n) => /^finished /.test(n.label)),
      JSON.stringify(archived),
    );
  });

  test('after the read, a task’s lens and hover say how its runs went on its hosts', async () => {
    const { doc } = await openTemplate(TEMPLATE);
    const s = await vscode.commands.executeCommand<Summary>('psconfig.readHosts', doc.uri);
    // The busy task with non-starters (which of the two lost runs depends on the recorded minutes).
    const busy = s.result!.hosts[1].entries.find((e) => e.task?.startsWith('busy') && (e.runs?.nonStarters ?? 0) > 0)!;
    const lens = await lensOf(doc.uri, 'psconfig.showHosts', busy.task!);
    assert.match(
      lens.command!.title,
      new RegExp(`^on its hosts: 1 present · last P1D: .*\\b${busy.runs!.nonStarters} non-started`),
    );
    const missing = await lensOf(doc.uri, 'psconfig.showHosts', 'lonely');
    assert.match(missing.command!.title, /^on its hosts: 1 missing · /);
    const hovers = await waitFor('the hover of lonely with its hosts', async () => {
      const h = await vscode.commands.executeCommand<vscode.Hover[]>(
        'vscode.executeHoverProvider',
        doc.uri,
        positionOf(doc, '"lonely"', 2),
      );
      const text = (h ?? [])
        .flatMap((x) => x.contents)
        .map((c) => (typeof c === 'string' ? c : c.value))
        .join('\n');
      return /On its hosts/.test(text) ? text : undefined;
    });
    assert.match(hovers, /127\\?\.0\\?\.0\\?\.41: missing/);
    // The lens opens the view on the task.
    const shown = await vscode.commands.executeCommand<Summary>(
      lens.command!.command,
      ...((lens.command!.arguments ?? []) as unknown[]),
    );
    assert.equal(shown?.template, doc.uri.toString());
  });
});
