// Where a node lands on screen before the WebGL renderer exists: sigma's own arithmetic (normalisation of the graph's
// extent into a unit square, its correction ratio and stage padding, the camera at rest) written out for the default
// camera, so the first view (preview.ts) draws every node exactly where sigma will draw it once it takes over.

export interface Projection {
  /** Graph coordinates to container pixels. */
  graphToViewport(p: { x: number; y: number }): { x: number; y: number };
  /** A node's drawn radius (or a line's width) in pixels for its size. */
  scaleSize(size: number): number;
}

export interface Extent { minX: number; maxX: number; minY: number; maxY: number }

/** sigma's getCorrectionRatio (normalization.ts): how far the framed graph is stretched to touch the stage's sides. */
function correctionRatio(width: number, height: number, graphWidth: number, graphHeight: number): number {
  const viewportRatio = height / width;
  const graphRatio = graphHeight / graphWidth;
  if ((viewportRatio < 1 && graphRatio > 1) || (viewportRatio > 1 && graphRatio < 1)) return 1;
  return Math.min(Math.max(graphRatio, 1 / graphRatio), Math.max(1 / viewportRatio, viewportRatio));
}

/**
 * sigma's graphToViewport with the camera at {x: 0.5, y: 0.5, ratio: 1, angle: 0} (what a fresh renderer shows) over
 * a container of `width` × `height` CSS pixels, for nodes spanning `extent`; `padding` is the stagePadding setting.
 * Node sizes at ratio 1 are pixels (sizes follow the screen: scaleSize is size / sqrt(ratio)).
 */
export function defaultProjection(extent: Extent, width: number, height: number, padding: number): Projection {
  const gw = extent.maxX - extent.minX || 1, gh = extent.maxY - extent.minY || 1;
  let span = Math.max(extent.maxX - extent.minX, extent.maxY - extent.minY);
  if (span === 0 || !Number.isFinite(span)) span = 1;
  const cx = (extent.maxX + extent.minX) / 2 || 0, cy = (extent.maxY + extent.minY) / 2 || 0;
  const k = ((Math.min(width, height) - 2 * padding) * correctionRatio(width, height, gw, gh)) / span;
  return {
    graphToViewport: (p) => ({ x: width / 2 + k * (p.x - cx), y: height / 2 - k * (p.y - cy) }),
    scaleSize: (size) => size,
  };
}
