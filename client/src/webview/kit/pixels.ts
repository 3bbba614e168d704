// A CSS colour as one ImageData pixel (little-endian RGBA in a Uint32), parsed by the browser: the canvases that
// draw straight into an ImageData (the dashboard's large grids, the host timeline) write these.

/** The pixel of `colour`; with `alpha` (0-255) its alpha replaced. */
export function pixelOf(colour: string, alpha?: number): number {
  const c = document.createElement('canvas');
  c.width = c.height = 1;
  const x = c.getContext('2d', { willReadFrequently: true });
  if (!x) return 0;
  x.fillStyle = colour;
  x.fillRect(0, 0, 1, 1);
  const [r, g, b, a] = x.getImageData(0, 0, 1, 1).data;
  return (((alpha ?? a) << 24) | (b << 16) | (g << 8) | r) >>> 0;
}
