// One value per owner object (an app's Deps, a database handle), built on first use and dropped with its owner.

/** Wraps `build` so each owner gets one instance: state inside it (failure counts, a one-time code) is shared app-wide. */
export function onePer<Owner extends object, Value>(build: (owner: Owner) => Value): (owner: Owner) => Value {
  const instances = new WeakMap<Owner, Value>();
  return (owner) => {
    if (!instances.has(owner)) instances.set(owner, build(owner));
    return instances.get(owner)!;
  };
}
