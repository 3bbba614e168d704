// The canvas skeleton the dashboard's grid and the host timeline share: a base canvas for the picture and an overlay
// above it for the hover and the drag selection (moving the mouse never redraws the picture), both sized in device
// pixels, the pointer's events wired to the view, and a redraw on the next frame when the view's width changes.
import { rafThrottle } from '../dom';

/** What a canvas view does with the pointer and the keyboard on its overlay. */
export interface PointerHandlers {
  move(e: MouseEvent): void;
  leave(): void;
  down(e: MouseEvent): void;
  /** Anywhere in the window: a drag may end outside the canvas. */
  up(e: MouseEvent): void;
  wheel(e: WheelEvent): void;
  dblclick(): void;
  key(e: KeyboardEvent): void;
}

/** The screen's device pixels per CSS pixel. */
export function pixelRatio(): number {
  return window.devicePixelRatio || 1;
}

export class LayeredCanvas {
  readonly base: HTMLCanvasElement;
  readonly overlay: HTMLCanvasElement;

  /** `prefix`-base and `prefix`-overlay are the canvases' classes; the overlay takes the focus. */
  constructor(prefix: string, label?: string) {
    this.base = document.createElement('canvas');
    this.overlay = document.createElement('canvas');
    this.base.className = `${prefix}-base`;
    this.overlay.className = `${prefix}-overlay`;
    this.overlay.tabIndex = 0;
    this.overlay.setAttribute('role', 'img');
    if (label) this.overlay.setAttribute('aria-label', label);
  }

  listen(h: PointerHandlers): void {
    this.overlay.addEventListener('mousemove', (e) => h.move(e));
    this.overlay.addEventListener('mouseleave', () => h.leave());
    this.overlay.addEventListener('mousedown', (e) => h.down(e));
    window.addEventListener('mouseup', (e) => h.up(e));
    this.overlay.addEventListener('wheel', (e) => h.wheel(e), { passive: false });
    this.overlay.addEventListener('dblclick', () => h.dblclick());
    this.overlay.addEventListener('keydown', (e) => h.key(e));
  }

  /** Both canvases `width` × `height` CSS pixels, `dpr` device pixels each (their contents are cleared). */
  size(width: number, height: number, dpr: number): void {
    for (const c of [this.base, this.overlay]) {
      c.width = Math.ceil(width * dpr);
      c.height = Math.ceil(height * dpr);
      c.style.width = `${width}px`;
      c.style.height = `${height}px`;
    }
  }

  /** Where a pointer event is, in CSS pixels from the canvases' top left corner. */
  at(e: { clientX: number; clientY: number }): { x: number; y: number } {
    const rect = this.overlay.getBoundingClientRect();
    return { x: e.clientX - rect.left, y: e.clientY - rect.top };
  }
}

/**
 * `draw` at most once a frame (the returned function asks for it), and whenever `el` gets a new width. Only the
 * width counts: a draw sets the height itself, which must not redraw again; and drawing on the next frame, not
 * inside the observer, keeps a draw's new height from notifying again within the same frame (the browser's
 * "ResizeObserver loop" error).
 */
export function redrawOnResize(el: HTMLElement, draw: () => void): () => void {
  const soon = rafThrottle(draw);
  let width = 0;
  new ResizeObserver(() => {
    if (el.clientWidth === width) return;
    width = el.clientWidth;
    soon();
  }).observe(el);
  return soon;
}
