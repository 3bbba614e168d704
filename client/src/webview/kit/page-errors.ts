// A page's own errors: shown on its status line and sent to the host's log. Chromium's "ResizeObserver loop"
// is left out: it is benign (layout settled a frame later) and reported as an error event.

export function reportPageErrors(
  what: string,
  setStatus: (text: string, kind: 'error') => void,
  log: (text: string) => void,
): void {
  window.addEventListener('error', (ev) => {
    if (/ResizeObserver loop/.test(ev.message)) return;
    setStatus(`${what} error: ${ev.message}`, 'error');
    log(`${ev.message} at ${ev.filename}:${ev.lineno}`);
  });
}
