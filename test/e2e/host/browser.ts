// Debian's chromium driven by playwright-core (no browser download), with the flags the project standardises on.
import { chromium, type Browser, type Page } from 'playwright-core';

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', headless: true, args: ARGS });
}

/** Forwards the page's console errors to a sink (the workbench's own errors help when a pass fails). */
export function collectConsole(page: Page, sink: (line: string) => void): void {
  page.on('console', (msg) => {
    if (msg.type() === 'error') sink(`[browser console] ${msg.text()}`);
  });
  page.on('pageerror', (err) => sink(`[page error] ${err.message}`));
}
