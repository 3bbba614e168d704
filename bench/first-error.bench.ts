// Issue 30: how soon the worst problem of a 16 MB template reaches the editor. The real server opens the inventory
// (72,000 addresses, one task naming an unknown group) with the diagnostics' early phase and without it, in the
// same run.
//   npm run bench -- first-error
import { loadavg } from 'node:os';
import { LspClient } from '../test/lsp/lsp-client';
import { unusedInventory } from '../test/generated-templates';

export async function run(): Promise<void> {
  await firstErrorOfInventory();
}

/** What one open of the inventory showed: when its error first reached the client, and when the full answer did. */
interface InventoryOpen {
  firstErrorMs: number;
  fullMs: number;
  early: number;
}

/**
 * Opens `text` in a fresh server (`early` false: the early phase off, one publication per pass as before it) and
 * times, from didOpen, the first publishDiagnostics carrying the unknown group and the one carrying the full pass's
 * answer (the `unused-definition` hints), each taken when the notification arrives.
 */
async function openInventory(text: string, early: boolean): Promise<InventoryOpen> {
  // PSCONFIG_BENCH_BASE_SERVER: the "before" runs use that bundle (e.g. main's dist/server.js) instead.
  const base = process.env.PSCONFIG_BENCH_BASE_SERVER;
  const client = await LspClient.start(
    early
      ? {}
      : {
          env: { PSCONFIG_EARLY_DIAGNOSTICS_MIN_CHARS: '1e12' },
          ...(base ? { command: [process.execPath, base, '--stdio'] } : {}),
        },
  );
  try {
    const uri = 'file:///bench/inventory.psconfig.json';
    const mine = (): PublishedList => client.publications.filter((p) => p.uri === uri).map((p) => p.diagnostics);
    let firstErrorMs = 0;
    const t0 = process.hrtime.bigint();
    const ms = (): number => Number(process.hrtime.bigint() - t0) / 1e6;
    void client.connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId: 'psconfig', version: 1, text },
    });
    await client.until(() => {
      if (!mine().some((ds) => ds.some((d) => d.code === 'psconfig/unknown-group'))) return false;
      firstErrorMs = ms();
      return true;
    }, 'the unknown group published');
    let fullMs = 0;
    await client.until(() => {
      if (!mine().some((ds) => ds.some((d) => d.code === 'psconfig/unused-definition'))) return false;
      fullMs = ms();
      return true;
    }, 'the full pass published');
    return { firstErrorMs, fullMs, early: mine().length - 1 };
  } finally {
    await client.stop();
  }
}

type PublishedList = LspClient['publications'][number]['diagnostics'][];

/**
 * Issue 30: the 16 MB inventory (72,000 addresses, all but 2,000 unused, one task naming a group that does not
 * exist) opened in the real server, with the early phase and without it (alternately, 3 rounds): from didOpen to
 * the first publication carrying the error, and to the full pass's; JSON.parse of the text as the baseline.
 */
async function firstErrorOfInventory(rounds = 3): Promise<void> {
  const { text } = unusedInventory(16_000_000);
  const single: InventoryOpen[] = [];
  const early: InventoryOpen[] = [];
  const parses: number[] = [];
  const load0 = loadavg()[0];
  for (let r = 0; r < rounds; r++) {
    const t0 = process.hrtime.bigint();
    JSON.parse(text);
    parses.push(Number(process.hrtime.bigint() - t0) / 1e6);
    const pair = r % 2 ? [true, false] : [false, true];
    for (const e of pair) (e ? early : single).push(await openInventory(text, e));
  }
  const med = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  const parse = med(parses);
  const fig = (label: string, xs: number[]): string =>
    `  ${label.padEnd(58)} ${med(xs).toFixed(0).padStart(6)} ms  ${(med(xs) / parse).toFixed(1).padStart(5)}x JSON.parse` +
    `  (${xs.map((x) => x.toFixed(0)).join(', ')})`;
  console.log(
    `${(text.length / 1e6).toFixed(1)} MB inventory (72,000 addresses, one task naming an unknown group), ` +
      `medians of ${rounds} opens each, load average ${load0.toFixed(1)} → ${loadavg()[0].toFixed(1)}:`,
  );
  console.log(fig('JSON.parse of the text (baseline, this process)', parses));
  console.log(
    fig(
      `${process.env.PSCONFIG_BENCH_BASE_SERVER ? 'base server' : 'early phase off'}: first error = full pass`,
      single.map((o) => o.firstErrorMs),
    ),
  );
  console.log(
    fig(
      'early phase: first error',
      early.map((o) => o.firstErrorMs),
    ),
  );
  console.log(
    fig(
      'early phase: full pass',
      early.map((o) => o.fullMs),
    ),
  );
  console.log(
    `  first error with the early phase / before: ${(med(early.map((o) => o.firstErrorMs)) / med(single.map((o) => o.firstErrorMs))).toFixed(2)}; ` +
      `publications before the full one: ${early.map((o) => o.early).join(', ')} (early phase), ${single.map((o) => o.early).join(', ')} (before)`,
  );
}
