// The pScheduler reader's public surface (pure: no vscode imports): GET-only, bounded reads of a host's tasks and
// runs. See docs/hosts.md.
export * from './errors';
export { getJson, closePSchedulerConnections } from './http';
export type { GetOptions, TlsOptions } from './http';
export * from './read';
