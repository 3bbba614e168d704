// Browser entry of the archive explorer webview (placeholder until the explorer lands).
export {};
