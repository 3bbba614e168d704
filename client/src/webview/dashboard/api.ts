// The dashboard page's handle on its host: `acquireVsCodeApi()` once per page (the harness injects a fake).
import type { DashboardToHost, HostToDashboard } from '../../dashboard/messages';

interface VsCodeApi {
  postMessage(msg: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

let api: VsCodeApi | undefined;
function vscode(): VsCodeApi {
  api ??= acquireVsCodeApi();
  return api;
}

export function post(msg: DashboardToHost): void {
  vscode().postMessage(msg);
}

export function loadState<T>(): T | undefined {
  return (vscode().getState() as T | null) ?? undefined;
}

export function saveState<T>(state: T): void {
  vscode().setState(state);
}

export function onHostMessage(handler: (msg: HostToDashboard) => void): void {
  window.addEventListener('message', (ev: MessageEvent<unknown>) => {
    const m = ev.data;
    if (m && typeof m === 'object' && typeof (m as { type?: unknown }).type === 'string') handler(m as HostToDashboard);
  });
}
