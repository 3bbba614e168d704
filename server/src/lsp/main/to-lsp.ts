// Offset-based results of the pure modules → LSP types.
import {
  CompletionItemKind,
  DiagnosticSeverity,
  DiagnosticTag,
  SymbolKind,
  type Diagnostic,
  type DocumentSymbol,
  type Range,
} from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { TemplateDiagnostic } from '../../template/rules/diagnostic';
import type { NavSymbol } from '../../template/navigation/document-symbols';
import type { SymbolKind as TemplateSymbolKind } from '../../template/symbols';

export function toRange(doc: TextDocument, start: number, end: number): Range {
  return { start: doc.positionAt(start), end: doc.positionAt(Math.max(start, end)) };
}

const SEVERITY: Record<TemplateDiagnostic['severity'], DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};

export function toDiagnostic(doc: TextDocument, d: TemplateDiagnostic): Diagnostic {
  const out: Diagnostic = {
    range: toRange(doc, d.start, d.end),
    severity: SEVERITY[d.severity] ?? DiagnosticSeverity.Error,
    code: d.code,
    source: 'psconfig',
    message: d.message,
  };
  if (d.tags?.length)
    out.tags = d.tags.map((t) => (t === 'unnecessary' ? DiagnosticTag.Unnecessary : DiagnosticTag.Deprecated));
  if (d.data !== undefined) out.data = d.data;
  return out;
}

const SYMBOL_KINDS: Record<string, SymbolKind> = {
  section: SymbolKind.Namespace,
  other: SymbolKind.Property,
  addresses: SymbolKind.Constant,
  'address-classes': SymbolKind.Class,
  archives: SymbolKind.Module,
  contexts: SymbolKind.Object,
  groups: SymbolKind.Array,
  hosts: SymbolKind.Struct,
  schedules: SymbolKind.Event,
  subtasks: SymbolKind.Method,
  tasks: SymbolKind.Function,
  tests: SymbolKind.Interface,
  labels: SymbolKind.EnumMember,
  'remote-addresses': SymbolKind.Field,
};

export function toDocumentSymbol(doc: TextDocument, s: NavSymbol): DocumentSymbol {
  const out: DocumentSymbol = {
    name: s.name || '""',
    kind: SYMBOL_KINDS[s.kind] ?? SymbolKind.Property,
    range: toRange(doc, s.start, s.end),
    selectionRange: toRange(doc, s.selectionStart, s.selectionEnd),
    children: s.children.map((c) => toDocumentSymbol(doc, c)),
  };
  if (s.detail) out.detail = s.detail;
  return out;
}

const COMPLETION_KINDS: Record<string, CompletionItemKind> = {
  variable: CompletionItemKind.Variable,
  addresses: CompletionItemKind.Constant,
  'address-classes': CompletionItemKind.Class,
  archives: CompletionItemKind.Module,
  contexts: CompletionItemKind.Struct,
  groups: CompletionItemKind.Reference,
  hosts: CompletionItemKind.Struct,
  schedules: CompletionItemKind.Event,
  subtasks: CompletionItemKind.Method,
  tests: CompletionItemKind.Interface,
  labels: CompletionItemKind.EnumMember,
  field: CompletionItemKind.Property,
  value: CompletionItemKind.Value,
  plugin: CompletionItemKind.Module,
};

export function completionKind(
  kind: TemplateSymbolKind | 'variable' | 'field' | 'value' | 'plugin',
): CompletionItemKind {
  return COMPLETION_KINDS[kind] ?? CompletionItemKind.Reference;
}
