// The search form: archive picker, every metadata filter, time presets or a custom range, summary window.
import {
  TIME_PRESETS,
  type ArchiveEntry,
  type SearchForm,
  type TimeSpec,
  type WindowChoice,
} from '../explorer/messages';
import { clear, h } from './dom';
import { formatWindow, fromDateTimeLocal, toDateTimeLocal } from './format';

/** Event types an archive can hold (reference esmond.md §1e), offered as suggestions. */
const EVENT_TYPES = [
  'failures',
  'histogram-owdelay',
  'histogram-rtt',
  'histogram-ttl',
  'histogram-ttl-reverse',
  'ntp-delay',
  'ntp-dispersion',
  'ntp-jitter',
  'ntp-offset',
  'ntp-polling-interval',
  'ntp-reach',
  'ntp-stratum',
  'ntp-wander',
  'packet-count-lost',
  'packet-count-lost-bidir',
  'packet-count-sent',
  'packet-duplicates',
  'packet-duplicates-bidir',
  'packet-loss-rate',
  'packet-loss-rate-bidir',
  'packet-reorders',
  'packet-reorders-bidir',
  'packet-retransmits',
  'packet-retransmits-subintervals',
  'packet-rtt',
  'packet-trace',
  'packet-trace-multi',
  'path-mtu',
  'pscheduler-raw',
  'streams-packet-retransmits',
  'streams-throughput',
  'streams-throughput-subintervals',
  'tcp-windowsize',
  'throughput',
  'throughput-subintervals',
  'time-error-estimates',
];
const WINDOWS = [0, 60, 300, 3600, 86400];

export interface FormHandlers {
  onSearch(): void;
  onAddArchive(): void;
  onSetToken(): void;
  onWindowChange(): void;
  onReverseChange(): void;
}

function input(
  id: string,
  label: string,
  placeholder = '',
  list?: string,
): { wrap: HTMLElement; el: HTMLInputElement } {
  const el = h('input', { id, name: id, type: 'text', placeholder, list, spellcheck: 'false', autocomplete: 'off' });
  return { wrap: h('label', { class: 'field', for: id }, h('span', {}, label), el), el };
}

export class SearchFormView {
  readonly el: HTMLFormElement;
  private readonly archive: HTMLSelectElement;
  private readonly inputs: Record<
    Exclude<keyof SearchForm, 'fields' | 'timeFilterMetadata' | 'dnsMatchRule'>,
    HTMLInputElement
  >;
  private readonly fields: HTMLInputElement;
  private readonly dns: HTMLSelectElement;
  private readonly timeFilter: HTMLInputElement;
  private readonly presets: HTMLButtonElement[] = [];
  private readonly customStart: HTMLInputElement;
  private readonly customEnd: HTMLInputElement;
  private readonly window: HTMLSelectElement;
  private readonly reverse: HTMLInputElement;
  private time: TimeSpec = { preset: '1d' };

  constructor(handlers: FormHandlers) {
    this.archive = h('select', { id: 'archive', 'aria-label': 'Archive' });
    const src = input('source', 'Source', 'host or IP');
    const dst = input('destination', 'Destination', 'host or IP');
    const agent = input('measurement-agent', 'Measurement agent', 'host or IP');
    const tool = input('tool-name', 'Tool', 'e.g. pscheduler/iperf3');
    const et = input('event-type', 'Event type', 'any', 'event-types');
    const isrc = input('input-source', 'Input source');
    const idst = input('input-destination', 'Input destination');
    this.inputs = {
      source: src.el,
      destination: dst.el,
      measurementAgent: agent.el,
      toolName: tool.el,
      eventType: et.el,
      inputSource: isrc.el,
      inputDestination: idst.el,
    };
    const extra = input('fields', 'Other fields', 'key=value key2=value2');
    this.fields = extra.el;
    this.dns = h(
      'select',
      { id: 'dns-match-rule' },
      ...['', 'v4v6', 'only-v4', 'only-v6', 'prefer-v4', 'prefer-v6'].map((v) =>
        h('option', { value: v }, v || '(default)'),
      ),
    );
    this.timeFilter = h('input', { type: 'checkbox', id: 'time-filter-metadata' });
    this.customStart = h('input', { type: 'datetime-local', id: 'time-start', 'aria-label': 'Start (UTC)' });
    this.customEnd = h('input', { type: 'datetime-local', id: 'time-end', 'aria-label': 'End (UTC)' });
    const presetBar = h('div', { class: 'presets', role: 'radiogroup', 'aria-label': 'Time range' });
    for (const p of TIME_PRESETS) {
      const b = h(
        'button',
        {
          type: 'button',
          class: 'preset',
          'data-preset': p,
          role: 'radio',
          onclick: () => this.setTime({ preset: p }),
        },
        p,
      );
      this.presets.push(b);
      presetBar.append(b);
    }
    const custom = h(
      'button',
      { type: 'button', class: 'preset', 'data-preset': 'custom', role: 'radio', onclick: () => this.useCustom() },
      'custom',
    );
    this.presets.push(custom);
    presetBar.append(custom);
    for (const i of [this.customStart, this.customEnd]) i.addEventListener('change', () => this.useCustom());
    this.window = h(
      'select',
      { id: 'summary-window', 'aria-label': 'Summary window', onchange: () => handlers.onWindowChange() },
      h('option', { value: 'auto' }, 'auto (as perfSONAR graphs)'),
      ...WINDOWS.map((w) => h('option', { value: String(w) }, formatWindow(w))),
    );
    this.reverse = h('input', {
      type: 'checkbox',
      id: 'show-reverse',
      checked: true,
      onchange: () => handlers.onReverseChange(),
    });

    this.el = h(
      'form',
      {
        class: 'search',
        onsubmit: (ev: Event) => {
          ev.preventDefault();
          handlers.onSearch();
        },
      },
      h(
        'div',
        { class: 'row' },
        h('label', { class: 'field grow', for: 'archive' }, h('span', {}, 'Archive'), this.archive),
        h(
          'button',
          {
            type: 'button',
            class: 'secondary',
            title: 'Add an archive to psconfig.archives',
            onclick: () => handlers.onAddArchive(),
          },
          'Add…',
        ),
        h(
          'button',
          {
            type: 'button',
            class: 'secondary',
            title: 'Set the API token of this archive',
            onclick: () => handlers.onSetToken(),
          },
          'Token…',
        ),
      ),
      h(
        'div',
        { class: 'grid' },
        src.wrap,
        dst.wrap,
        agent.wrap,
        tool.wrap,
        et.wrap,
        isrc.wrap,
        idst.wrap,
        h('label', { class: 'field', for: 'dns-match-rule' }, h('span', {}, 'DNS match'), this.dns),
        extra.wrap,
      ),
      h('datalist', { id: 'event-types' }, ...EVENT_TYPES.map((e) => h('option', { value: e }))),
      presetBar,
      h(
        'div',
        { class: 'row custom-range' },
        h('span', {}, 'From'),
        this.customStart,
        h('span', {}, 'to'),
        this.customEnd,
        h('span', { class: 'muted' }, 'UTC'),
      ),
      h(
        'div',
        { class: 'row' },
        h('label', { class: 'check' }, this.timeFilter, ' only measurements written in this range'),
        h('label', { class: 'check' }, this.reverse, ' reverse direction'),
        h('label', { class: 'field inline', for: 'summary-window' }, h('span', {}, 'Summary'), this.window),
        h('button', { type: 'submit', class: 'primary', id: 'search-button' }, 'Search'),
      ),
    );
    this.setTime(this.time);
  }

  setArchives(list: ArchiveEntry[], selected?: string): void {
    const keep = selected ?? this.archive.value;
    clear(this.archive);
    for (const a of list) this.archive.append(h('option', { value: a.url }, `${a.name} — ${a.url}`));
    if (keep && !list.some((a) => a.url === keep)) this.archive.append(h('option', { value: keep }, keep));
    if (keep) this.archive.value = keep;
  }

  get archiveUrl(): string {
    return this.archive.value;
  }

  setTime(t: TimeSpec): void {
    this.time = t;
    const active = 'preset' in t ? t.preset : 'custom';
    for (const b of this.presets) {
      const on = b.dataset.preset === active;
      b.classList.toggle('active', on);
      b.setAttribute('aria-checked', on ? 'true' : 'false');
    }
    if (!('preset' in t)) {
      this.customStart.value = toDateTimeLocal(t.start);
      this.customEnd.value = toDateTimeLocal(t.end);
    }
    this.el?.classList.toggle('show-custom', active === 'custom');
  }

  private useCustom(): void {
    const now = Math.floor(Date.now() / 1000);
    const start = fromDateTimeLocal(this.customStart.value) ?? now - 86400;
    const end = fromDateTimeLocal(this.customEnd.value) ?? now;
    this.setTime({ start, end });
  }

  get timeSpec(): TimeSpec {
    return this.time;
  }

  get windowChoice(): WindowChoice {
    return this.window.value === 'auto' ? 'auto' : Number(this.window.value);
  }
  set windowChoice(w: WindowChoice) {
    this.window.value = String(w);
    if (this.window.value === '') this.window.value = 'auto';
  }

  get showReverse(): boolean {
    return this.reverse.checked;
  }
  set showReverse(v: boolean) {
    this.reverse.checked = v;
  }

  read(): SearchForm {
    const v = (el: HTMLInputElement): string => el.value.trim();
    const fields: [string, string][] = [];
    for (const part of this.fields.value.split(/[\s,]+/)) {
      const eq = part.indexOf('=');
      if (eq > 0) fields.push([part.slice(0, eq), part.slice(eq + 1)]);
    }
    return {
      source: v(this.inputs.source),
      destination: v(this.inputs.destination),
      measurementAgent: v(this.inputs.measurementAgent),
      toolName: v(this.inputs.toolName),
      eventType: v(this.inputs.eventType),
      inputSource: v(this.inputs.inputSource),
      inputDestination: v(this.inputs.inputDestination),
      dnsMatchRule: this.dns.value,
      fields,
      timeFilterMetadata: this.timeFilter.checked,
    };
  }

  write(f: Partial<SearchForm>): void {
    for (const k of Object.keys(this.inputs) as (keyof typeof this.inputs)[])
      if (f[k] !== undefined) this.inputs[k].value = f[k];
    if (f.fields) this.fields.value = f.fields.map(([k, v]) => `${k}=${v}`).join(' ');
    if (f.dnsMatchRule !== undefined) this.dns.value = f.dnsMatchRule;
    if (f.timeFilterMetadata !== undefined) this.timeFilter.checked = f.timeFilterMetadata;
  }

  /** Problems the archive would reject anyway, said before asking it. */
  validate(): string | undefined {
    if (!this.archive.value) return 'Choose an archive first (add one with "Add…" or the setting psconfig.archives).';
    for (const part of this.fields.value.split(/[\s,]+/).filter(Boolean)) {
      if (part.indexOf('=') <= 0) return `Other fields: "${part}" is not key=value.`;
    }
    if (!('preset' in this.time) && this.time.start >= this.time.end)
      return 'The custom range must start before it ends.';
    return undefined;
  }
}
