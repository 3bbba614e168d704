// A page's handle on its host for the panels that only post messages and receive them (the mesh dashboard, the
// schedule timeline): `acquireVsCodeApi()` once per page (VS Code; the test harnesses inject a fake), typed by
// the panel's own message module.

interface VsCodeApi {
  postMessage(msg: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

export interface HostChannel<ToHost, FromHost> {
  // Function-valued properties, not methods: the pages take them apart (`export const { post, … } = hostChannel()`).
  post: (msg: ToHost) => void;
  loadState: <T>() => T | undefined;
  saveState: <T>(state: T) => void;
  /** Every message from the host that has a string `type` (anything else is dropped). */
  onHostMessage: (handler: (msg: FromHost) => void) => void;
}

let api: VsCodeApi | undefined;
function vscode(): VsCodeApi {
  api ??= acquireVsCodeApi();
  return api;
}

export function hostChannel<ToHost, FromHost>(): HostChannel<ToHost, FromHost> {
  return {
    post: (msg) => vscode().postMessage(msg),
    loadState: <T>() => (vscode().getState() as T | null) ?? undefined,
    saveState: (state) => vscode().setState(state),
    onHostMessage: (handler) =>
      window.addEventListener('message', (ev: MessageEvent<unknown>) => {
        const m = ev.data;
        if (m && typeof m === 'object' && typeof (m as { type?: unknown }).type === 'string') handler(m as FromHost);
      }),
  };
}
