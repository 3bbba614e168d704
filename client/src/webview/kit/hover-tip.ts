// The hover text the dashboard and the host timeline show beside the pointer (element id `tooltip`), written with
// textContent only; `shown` hears every text shown ('' when hidden) for the page's test metrics.
import { h } from '../dom';

export class HoverTip {
  readonly el = h('div', { class: 'tooltip', id: 'tooltip', hidden: true });

  constructor(private readonly shown: (text: string) => void) {}

  show(text: string, clientX: number, clientY: number): void {
    this.el.textContent = text;
    this.el.hidden = false;
    this.shown(text);
    placeTooltip(this.el, clientX, clientY);
  }

  hide(): void {
    this.el.hidden = true;
    this.shown('');
  }
}

/** Puts a fixed-position tooltip beside the pointer, inside the window (above it near the bottom edge). */
function placeTooltip(tip: HTMLElement, clientX: number, clientY: number): void {
  const x = Math.min(clientX + 16, window.innerWidth - tip.offsetWidth - 8);
  const y = clientY + 18 + tip.offsetHeight > window.innerHeight ? clientY - tip.offsetHeight - 12 : clientY + 18;
  tip.style.left = `${Math.max(4, x)}px`;
  tip.style.top = `${Math.max(4, y)}px`;
}
