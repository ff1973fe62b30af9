// Load / error / reload of a page's data, written once: the data (kept while a reload runs or fails), the error in
// people's words (web/errors.ts), and `reload`, which never throws (a failure shows as `error`).
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { describeError } from "../errors";

export interface Load<T> {
  /** null until the first load succeeds. */
  data: T | null;
  error: string | null;
  reload: () => Promise<void>;
}

/** Loads on mount and whenever `deps` change; only the latest call's answer is kept. */
export function useLoad<T>(fetch: () => Promise<T>, deps: readonly unknown[] = []): Load<T> {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const latest = useRef(0);
  const reload = useCallback(async () => {
    const mine = ++latest.current;
    try {
      const value = await fetch();
      if (mine !== latest.current) return;
      setData(value);
      setError(null);
    } catch (e) {
      if (mine === latest.current) setError(describeError(e));
    }
  }, deps);
  useEffect(() => void reload(), [reload]);
  return { data, error, reload };
}
