// Builds a navigation model from template text; `|` in the text marks the cursor.
import { analyseTemplate, type TemplateModel } from '../../../server/src/template/model';

export function navModel(text: string): TemplateModel {
  return analyseTemplate(text);
}

/** Removes the `|` cursor marker and returns the model and the cursor offset. */
export function atCursor(marked: string): { model: TemplateModel; offset: number } {
  const offset = marked.indexOf('|');
  if (offset < 0) throw new Error('no | cursor in the text');
  return { model: navModel(marked.slice(0, offset) + marked.slice(offset + 1)), offset };
}

/** Applies offset edits (non-overlapping) to a text. */
export function applyOffsetEdits(text: string, edits: { start: number; end: number; newText: string }[]): string {
  let out = text;
  for (const e of [...edits].sort((a, b) => b.start - a.start))
    out = out.slice(0, e.start) + e.newText + out.slice(e.end);
  return out;
}

/** A small template with every kind of name, used by several tests. */
export const TEMPLATE = `{
  "addresses": {
    "a1": { "address": "a1.example.net", "host": "h1", "contexts": ["ctx"],
      "labels": { "v6": { "address": "2001:db8::1" } },
      "remote-addresses": { "a2": { "labels": { "circuit": { "address": "10.0.0.1" } } } } },
    "a2": { "address": "a2.example.net", "labels": { "v6": { "address": "2001:db8::2" } } },
    "a3": { "address": "a3.example.net" }
  },
  "address-classes": {
    "tagged": { "data-source": { "type": "current-config" }, "match-filter": { "type": "tag", "tag": "x" } },
    "nested": { "data-source": { "type": "current-config" }, "match-filter": { "type": "and", "filters": [ { "type": "address-class", "class": "tagged" } ] } }
  },
  "hosts": { "h1": { "archives": ["arch"] } },
  "contexts": { "ctx": { "context": "linuxnns", "data": {} } },
  "archives": { "arch": { "archiver": "esmond", "data": { "url": "https://ma.example.net/esmond/perfsonar/archive/" } } },
  "groups": {
    "mesh-g": { "type": "mesh", "addresses": [ { "name": "a1", "label": "v6" }, { "name": "a2" }, { "class": "tagged" } ],
      "excludes": [ { "local-address": { "name": "a1" }, "target-addresses": [ { "name": "a2" } ] } ] },
    "list-g": { "type": "list", "default-address-label": "v6", "addresses": [ { "name": "a3" } ] }
  },
  "tests": {
    "thr": { "type": "throughput", "spec": { "source": "{% address[0] %}", "dest": "{% address[1] %}" } },
    "ping": { "type": "rtt", "spec": { "dest": "{% address[0] %}" } }
  },
  "schedules": { "often": { "repeat": "PT1H" } },
  "subtasks": { "sub": { "test": "ping" } },
  "tasks": {
    "t-mesh": { "group": "mesh-g", "test": "thr", "schedule": "often", "archives": ["arch"], "subtasks": ["sub"] },
    "t-list": { "group": "list-g", "test": "ping", "reference": { "note": "{% address[0] %}" } }
  }
}
`;
