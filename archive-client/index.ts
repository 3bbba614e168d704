// The archive client's public surface (pure: no vscode imports). See docs/archive-explorer.md.
export * from './types';
export * from './errors';
export { requestJson, closeArchiveConnections, originOf, DEFAULT_TIMEOUT_MS, DEFAULT_MAX_RESPONSE_BYTES } from './http';
export * from './request-options';
export * from './shapes';
export * from './url';
export * from './search';
export * from './series';
export * from './values';
export * from './statistics';
export * from './summaries';
export * from './write';
export * from './export-csv';
