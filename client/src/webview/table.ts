// The results table: virtualised (only the rows in view exist in the DOM, so 10,000 results render as fast as
// 30), sortable by clicking a header, keyboard-navigable (↑/↓/Home/End, Enter plots).
import type { MeasurementRow, SortColumn } from '../explorer/messages';
import { clear, h, rafThrottle } from './dom';
import { formatTime } from './format';

const ROW_HEIGHT = 22;
const OVERSCAN = 8;

const COLUMNS: { id: SortColumn; label: string }[] = [
  { id: 'pair', label: 'Source → Destination' },
  { id: 'tool', label: 'Tool' },
  { id: 'eventTypes', label: 'Event types' },
  { id: 'lastUpdate', label: 'Last update (UTC)' },
];

function pairText(r: MeasurementRow): string {
  return r.subjectType === 'network-element' || !r.destination ? r.source : `${r.source} → ${r.destination}`;
}
function eventTypesText(r: MeasurementRow): string {
  return r.eventTypes
    .map((e) => e.eventType)
    .sort()
    .join(', ');
}

/** Digit runs zero-padded, so plain `<` orders 10.0.0.9 before 10.0.0.10 (cheaper than a numeric Intl.Collator). */
function natural(text: string): string {
  return text.toLowerCase().replace(/\d+/g, (d) => d.padStart(12, '0'));
}

/** Sort key of a row for a column: computed once per sort, not once per comparison (10,000 rows). */
function sortKey(r: MeasurementRow, col: SortColumn): string | number {
  switch (col) {
    case 'pair':
      return natural(pairText(r));
    case 'tool':
      return natural(r.toolName);
    case 'eventTypes':
      return `${String(r.eventTypes.length).padStart(3, '0')} ${eventTypesText(r)}`;
    case 'lastUpdate':
      return r.lastUpdate ?? -1;
  }
}

export class ResultsTable {
  readonly el: HTMLElement;
  private readonly header: HTMLElement;
  private readonly body: HTMLElement;
  private readonly spacer: HTMLElement;
  private readonly rowsEl: HTMLElement;
  private rows: MeasurementRow[] = [];
  private selected: string | undefined;
  private sortCol: SortColumn = 'pair';
  private descending = false;
  private readonly schedule: () => void;

  constructor(
    private readonly onSelect: (row: MeasurementRow) => void,
    private readonly onSort: (col: SortColumn, descending: boolean) => void,
  ) {
    this.header = h('div', { class: 'trow thead', role: 'row' });
    this.spacer = h('div', { class: 'tspacer' });
    this.rowsEl = h('div', { class: 'trows', role: 'rowgroup' });
    this.body = h('div', { class: 'tbody', tabindex: 0, 'aria-label': 'Search results' }, this.spacer, this.rowsEl);
    this.el = h('div', { class: 'results', role: 'grid', 'aria-rowcount': 0 }, this.header, this.body);
    this.schedule = rafThrottle(() => this.renderVisible());
    this.body.addEventListener('scroll', this.schedule, { passive: true });
    this.body.addEventListener('keydown', (ev) => this.onKey(ev));
    this.rowsEl.addEventListener('click', (ev) => {
      const target = (ev.target as HTMLElement).closest<HTMLElement>('[data-index]');
      if (target) this.select(Number(target.dataset.index));
    });
    new ResizeObserver(this.schedule).observe(this.body);
    this.renderHeader();
  }

  setRows(rows: MeasurementRow[]): void {
    this.rows = rows.slice();
    this.sortRows();
    this.el.setAttribute('aria-rowcount', String(this.rows.length));
    this.spacer.style.height = `${this.rows.length * ROW_HEIGHT}px`;
    this.body.scrollTop = 0;
    this.renderVisible();
  }

  setSort(col: SortColumn, descending: boolean): void {
    this.sortCol = col;
    this.descending = descending;
    this.renderHeader();
    this.sortRows();
    this.renderVisible();
  }

  get count(): number {
    return this.rows.length;
  }

  rowByKey(key: string): MeasurementRow | undefined {
    return this.rows.find((r) => r.key === key);
  }

  /** Select by key (state restore); scrolls it into view. */
  selectKey(key: string): boolean {
    const i = this.rows.findIndex((r) => r.key === key);
    if (i < 0) return false;
    this.select(i);
    return true;
  }

  private select(i: number): void {
    const row = this.rows[i];
    if (!row) return;
    this.selected = row.key;
    const top = i * ROW_HEIGHT;
    if (top < this.body.scrollTop) this.body.scrollTop = top;
    else if (top + ROW_HEIGHT > this.body.scrollTop + this.body.clientHeight)
      this.body.scrollTop = top + ROW_HEIGHT - this.body.clientHeight;
    this.renderVisible();
    this.onSelect(row);
  }

  private sortRows(): void {
    const dir = this.descending ? -1 : 1;
    const keyed = this.rows.map((row) => ({ row, k: sortKey(row, this.sortCol) }));
    keyed.sort((a, b) => {
      const c = typeof a.k === 'number' && typeof b.k === 'number' ? a.k - b.k : a.k < b.k ? -1 : a.k > b.k ? 1 : 0;
      return dir * c || (a.row.key < b.row.key ? -1 : a.row.key > b.row.key ? 1 : 0);
    });
    this.rows = keyed.map((x) => x.row);
  }

  private renderHeader(): void {
    clear(this.header);
    for (const c of COLUMNS) {
      const active = c.id === this.sortCol;
      const arrow = active ? (this.descending ? ' ▾' : ' ▴') : '';
      this.header.append(
        h(
          'button',
          {
            class: `tcell th${active ? ' sorted' : ''}`,
            role: 'columnheader',
            'aria-sort': active ? (this.descending ? 'descending' : 'ascending') : 'none',
            'data-col': c.id,
            onclick: () => {
              const descending = c.id === this.sortCol ? !this.descending : c.id === 'lastUpdate';
              this.setSort(c.id, descending);
              this.onSort(c.id, descending);
            },
          },
          c.label + arrow,
        ),
      );
    }
  }

  private renderVisible(): void {
    const height = this.body.clientHeight || 300;
    const first = Math.max(0, Math.floor(this.body.scrollTop / ROW_HEIGHT) - OVERSCAN);
    const last = Math.min(this.rows.length, Math.ceil((this.body.scrollTop + height) / ROW_HEIGHT) + OVERSCAN);
    this.rowsEl.style.transform = `translateY(${first * ROW_HEIGHT}px)`;
    const frag = document.createDocumentFragment();
    for (let i = first; i < last; i++) {
      const r = this.rows[i];
      const sel = r.key === this.selected;
      frag.append(
        h(
          'div',
          {
            class: `trow${sel ? ' selected' : ''}`,
            role: 'row',
            'aria-rowindex': i + 2,
            'aria-selected': sel ? 'true' : 'false',
            'data-index': i,
            'data-key': r.key,
            title: r.uri,
          },
          h('span', { class: 'tcell', role: 'gridcell' }, pairText(r)),
          h('span', { class: 'tcell', role: 'gridcell' }, r.toolName),
          h('span', { class: 'tcell', role: 'gridcell' }, eventTypesText(r)),
          h('span', { class: 'tcell', role: 'gridcell' }, formatTime(r.lastUpdate)),
        ),
      );
    }
    clear(this.rowsEl);
    this.rowsEl.append(frag);
  }

  private onKey(ev: KeyboardEvent): void {
    if (this.rows.length === 0) return;
    const cur = this.selected === undefined ? -1 : this.rows.findIndex((r) => r.key === this.selected);
    const page = Math.max(1, Math.floor(this.body.clientHeight / ROW_HEIGHT) - 1);
    const moves: Record<string, number> = {
      ArrowDown: cur + 1,
      ArrowUp: cur - 1,
      PageDown: cur + page,
      PageUp: cur - page,
      Home: 0,
      End: this.rows.length - 1,
    };
    const to = moves[ev.key];
    if (to === undefined) return;
    ev.preventDefault();
    this.select(Math.max(0, Math.min(this.rows.length - 1, to)));
  }
}
