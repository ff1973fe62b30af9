// Stands in for `sharp` in the compiled binary (scripts/build.ts): transformers.js imports it at load for its image
// pipelines, which idearepo never runs, and sharp's native addon is not embedded. Truthy on purpose: transformers.js
// throws at load when the import is falsy; this way only a call into image code fails.
export default function sharp(): never {
  throw new Error("image processing (sharp) is not part of the idearepo binary");
}
