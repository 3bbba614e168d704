// The archive client's public surface (pure: no vscode imports). See README section `archive-explorer`.
export * from './types';
export * from './errors';
export { requestJson, closeArchiveConnections, DEFAULT_TIMEOUT_MS } from './http';
export * from './url';
export * from './search';
export * from './series';
export * from './values';
export * from './statistics';
export * from './summaries';
export * from './write';
export * from './export-csv';
