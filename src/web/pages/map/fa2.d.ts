// Types for the two ForceAtlas2 internals the map drives frame by frame (the package types only its whole-run API).
declare module "graphology-layout-forceatlas2/iterate.js" {
  /** One iteration over the flat matrices (10 floats per node, 3 per edge); moves nodes in place. */
  export default function iterate(settings: Record<string, unknown>, nodes: Float32Array, edges: Float32Array): void;
}
declare module "graphology-layout-forceatlas2/defaults.js" {
  const DEFAULTS: Record<string, unknown>;
  export default DEFAULTS;
}
