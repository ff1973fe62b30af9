// Fixtures made in a hook (beforeAll/beforeEach) that a test file still names once at its top: `const { t } = useX()`.

/**
 * Stands for a value a hook makes (and may replace before each test): every member read goes to the value current
 * at that moment, and reading it before the hook ran says so instead of failing on `undefined`.
 */
export function late<T extends object>(what: string, get: () => T | undefined): T {
  const current = () => {
    const value = get();
    if (value === undefined) throw new Error(`${what} is made in a hook; use it inside a test or a later hook`);
    return value;
  };
  return new Proxy({} as T, {
    get(_, key) {
      const target = current();
      const value = Reflect.get(target, key);
      return typeof value === "function" ? value.bind(target) : value;
    },
    set: (_, key, value) => Reflect.set(current(), key, value),
    has: (_, key) => Reflect.has(current(), key),
  });
}
