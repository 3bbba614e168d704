// Browser entry of the archive explorer webview: search form → results table → detail charts. All data comes
// from the host through typed messages (../explorer/messages.ts); the page itself never touches the network.
import './explorer.css';
import type { ArchiveEntry, ExplorerState, MeasurementRow, Prefill, SortColumn } from '../explorer/messages';
import { emptyForm } from '../explorer/messages';
import { autoResize } from './charts';
import { DetailView, type ChartMetric } from './detail';
import { clear, h } from './dom';
import { SearchFormView } from './form';
import { ResultsTable } from './table';
import { onThemeChange, readPalette } from './theme';
import { HostError, loadState, newId, onHostMessage, post, request, saveState } from './vscode-api';
import { noun } from '../../../common/text';

interface Metrics {
  search?: { rows: number; renderMs: number; hostMs: number; pages: number; totalMs: number };
  charts: Record<string, ChartMetric>;
  exports: number;
}
declare global {
  interface Window {
    explorerMetrics: Metrics;
    /** For tests and the developer console: the x range of every time chart (UNIX seconds). */
    explorerXRanges: () => [number | undefined, number | undefined][];
  }
}
window.explorerMetrics = { charts: {}, exports: 0 };

const app = document.getElementById('app') ?? document.body;
let archives: ArchiveEntry[] = [];
let sort: { column: SortColumn; descending: boolean } = { column: 'pair', descending: false };
let selectedKey: string | undefined;
let searchId = 0;

const status = h('div', { class: 'status-line', id: 'status', role: 'status' });
const form = new SearchFormView({
  onSearch: () => void runSearch(),
  onAddArchive: () => post({ type: 'addArchive' }),
  onSetToken: () => post({ type: 'setToken', archive: form.archiveUrl }),
  onWindowChange: () => replot(),
  onReverseChange: () => replot(),
});
const table = new ResultsTable(
  (row) => select(row),
  (column, descending) => {
    sort = { column, descending };
    persist();
  },
);
const detail = new DetailView(readPalette(), (format) => void doExport(format));
const empty = h(
  'p',
  { class: 'muted empty', id: 'empty' },
  'Pick an archive and search. Leave every filter blank to list everything the archive holds.',
);

clear(app);
app.append(form.el, status, empty, table.el, detail.el);
autoResize(detail.el, detail.group);
onThemeChange(() => detail.setPalette(readPalette()));
window.explorerXRanges = () => detail.group.all().map((u) => [u.scales.x.min, u.scales.x.max]);

function setStatus(text: string, kind: 'info' | 'error' | 'busy' = 'info'): void {
  status.textContent = text;
  status.className = `status-line ${kind}`;
}

function persist(): void {
  const state: ExplorerState = {
    archive: form.archiveUrl,
    form: form.read(),
    time: form.timeSpec,
    window: form.windowChoice,
    selectedKey,
    sort,
    showReverse: form.showReverse,
  };
  saveState(state);
}

async function runSearch(restoreKey?: string): Promise<void> {
  const problem = form.validate();
  if (problem) {
    setStatus(problem, 'error');
    return;
  }
  const id = newId();
  searchId = id;
  persist();
  const started = performance.now();
  setStatus(`Searching ${form.archiveUrl}…`, 'busy');
  table.el.classList.add('busy');
  try {
    const m = await request({ type: 'search', id, archive: form.archiveUrl, form: form.read(), time: form.timeSpec });
    if (id !== searchId || m.type !== 'searchResult') return;
    const t0 = performance.now();
    table.setRows(m.rows);
    void table.el.offsetHeight; // include layout in the measured render time
    empty.hidden = m.rows.length > 0;
    if (!m.rows.length) empty.textContent = 'No measurement matches these filters.';
    const renderMs = performance.now() - t0;
    window.explorerMetrics.search = {
      rows: m.rows.length,
      renderMs,
      hostMs: m.elapsedMs,
      pages: m.pages,
      totalMs: performance.now() - started,
    };
    setStatus(
      `${m.rows.length} ${noun(m.rows.length, 'measurement')}${m.total > m.rows.length ? ` of ${m.total}` : ''} · ${m.pages} ${noun(m.pages, 'page')} · ${Math.round(m.elapsedMs)} ms${m.warning ? ` · warning: ${m.warning}` : ''}`,
    );
    if (restoreKey && table.selectKey(restoreKey)) return;
  } catch (err) {
    if (id !== searchId) return;
    const text = err instanceof HostError ? err.info.message : String(err);
    setStatus(`Search failed: ${text}`, 'error');
  } finally {
    if (id === searchId) table.el.classList.remove('busy');
  }
}

function select(row: MeasurementRow): void {
  selectedKey = row.key;
  persist();
  detail.show({
    archive: form.archiveUrl,
    row,
    time: form.timeSpec,
    window: form.windowChoice,
    showReverse: form.showReverse,
  });
  window.explorerMetrics.charts = detail.metrics;
}

function replot(): void {
  persist();
  const row = selectedKey ? table.rowByKey(selectedKey) : undefined;
  if (row) select(row);
}

async function doExport(format: 'csv' | 'json'): Promise<void> {
  const shown = detail.shown();
  if (!shown.length) {
    setStatus('Nothing to export yet: select a measurement first.', 'error');
    return;
  }
  const row = selectedKey ? table.rowByKey(selectedKey) : undefined;
  const name =
    `${row ? `${row.source}_${row.destination || 'na'}` : 'series'}_${detail.range.start}-${detail.range.end}.${format}`.replace(
      /[^\w.-]+/g,
      '_',
    );
  try {
    const m = await request({ type: 'export', id: newId(), format, suggestedName: name, shown, range: detail.range });
    if (m.type !== 'exported') return;
    window.explorerMetrics.exports++;
    setStatus(m.cancelled ? 'Export cancelled.' : `Exported ${m.bytes} bytes${m.path ? ` to ${m.path}` : ''}.`);
  } catch (err) {
    setStatus(`Export failed: ${err instanceof HostError ? err.info.message : String(err)}`, 'error');
  }
}

function applyPrefill(p: Prefill): void {
  form.setArchives(archives, p.url);
  form.write({
    ...emptyForm(),
    source: p.source ?? '',
    destination: p.destination ?? '',
    inputSource: p.inputSource ?? '',
    inputDestination: p.inputDestination ?? '',
    eventType: p.eventType ?? '',
    toolName: p.toolName ?? '',
  });
  if (p.time) form.setTime(p.time);
  // A dashboard cell names its measurement: the search selects it, which plots it.
  if (p.run) void runSearch(p.metadataKey);
}

onHostMessage((msg) => {
  switch (msg.type) {
    case 'init': {
      archives = msg.archives;
      const st = loadState();
      form.setArchives(archives, st?.archive ?? archives[0]?.url);
      if (msg.prefill) {
        applyPrefill(msg.prefill);
        return;
      }
      if (st?.form) {
        form.write(st.form);
        if (st.time) form.setTime(st.time);
        if (st.window !== undefined) form.windowChoice = st.window;
        if (st.showReverse !== undefined) form.showReverse = st.showReverse;
        if (st.sort) {
          sort = st.sort;
          table.setSort(sort.column, sort.descending);
        }
        if (st.archive) void runSearch(st.selectedKey);
      } else if (!archives.length) {
        setStatus('No archive configured: use "Add…" (or the setting psconfig.archives).');
      }
      return;
    }
    case 'archives':
      archives = msg.archives;
      form.setArchives(archives);
      return;
    case 'prefill':
      applyPrefill(msg.prefill);
      return;
    default:
      return; // answers to superseded requests
  }
});

window.addEventListener('error', (ev) => {
  setStatus(`Explorer error: ${ev.message}`, 'error');
  post({ type: 'log', level: 'error', text: `${ev.message} at ${ev.filename}:${ev.lineno}` });
});
window.addEventListener('unhandledrejection', (ev) => {
  setStatus(`Explorer error: ${String(ev.reason)}`, 'error');
});

post({ type: 'ready' });
