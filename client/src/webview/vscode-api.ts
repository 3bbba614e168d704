// The one handle on the host: `acquireVsCodeApi()` may be called once per page (VS Code) — the test harness
// injects a fake with the same shape. Requests carry ids so late answers to superseded requests are ignored.
import type { ErrorInfo, ExplorerState, HostToWebview, WebviewToHost } from '../explorer/messages';

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

let nextId = 1;
export function newId(): number {
  return nextId++;
}

export function post(msg: WebviewToHost): void {
  vscode().postMessage(msg);
}

/** A failed request, carrying what the host said. */
export class HostError extends Error {
  constructor(readonly info: ErrorInfo) {
    super(info.message);
  }
}

type Answer = Exclude<HostToWebview, { type: 'init' | 'archives' | 'prefill' | 'error' }>;
const pending = new Map<number, { resolve: (m: Answer) => void; reject: (e: HostError) => void }>();

/** Send a request and wait for its answer (or its error). */
export function request<M extends Extract<WebviewToHost, { id: number }>>(msg: M): Promise<Answer> {
  return new Promise((resolve, reject) => {
    pending.set(msg.id, { resolve, reject });
    post(msg);
  });
}

/** Route answers to their requests; everything else (init, archives, prefill) to `handler`. */
export function onHostMessage(handler: (msg: HostToWebview) => void): void {
  window.addEventListener('message', (ev: MessageEvent<unknown>) => {
    const m = ev.data;
    if (!m || typeof m !== 'object' || typeof (m as { type?: unknown }).type !== 'string') return;
    const msg = m as HostToWebview;
    if ('id' in msg && pending.has(msg.id)) {
      const p = pending.get(msg.id);
      pending.delete(msg.id);
      if (msg.type === 'error') p?.reject(new HostError(msg.error));
      else p?.resolve(msg);
      return;
    }
    handler(msg);
  });
}

export function loadState(): Partial<ExplorerState> | undefined {
  const s = vscode().getState();
  return s && typeof s === 'object' ? s : undefined;
}

export function saveState(state: ExplorerState): void {
  vscode().setState(state);
}
