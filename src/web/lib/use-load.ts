// Load / error / reload of a page's data, written once: the data (kept while a reload runs or fails), the error in
// people's words (web/errors.ts) and as thrown (a page's "not found" reads its status), whether a load is running,
// `reload`, which never throws (a failure shows as `error`), and `update` for a change the page made itself.
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { describeError } from "../errors";

export interface Load<T> {
  /** null until the first load succeeds. */
  data: T | null;
  error: string | null;
  /** The last load's failure as thrown (null after a success). */
  failure: unknown;
  /** A load is running (the first, or a reload). */
  loading: boolean;
  reload: () => Promise<void>;
  /** Replaces the loaded data without a request (after a change made on the page); nothing before the first load. */
  update: (change: (data: T) => T) => void;
}

/** Loads on mount and whenever `deps` change; only the latest call's answer is kept. */
export function useLoad<T>(fetch: () => Promise<T>, deps: readonly unknown[] = []): Load<T> {
  const [data, setData] = useState<T | null>(null);
  const [failure, setFailure] = useState<{ error: unknown; message: string } | null>(null);
  const [loading, setLoading] = useState(true);
  const latest = useRef(0);
  const reload = useCallback(async () => {
    const mine = ++latest.current;
    setLoading(true);
    try {
      const value = await fetch();
      if (mine !== latest.current) return;
      setData(value);
      setFailure(null);
    } catch (e) {
      if (mine === latest.current) setFailure({ error: e, message: describeError(e) });
    } finally {
      if (mine === latest.current) setLoading(false);
    }
  }, deps);
  useEffect(() => void reload(), [reload]);
  const update = useCallback((change: (data: T) => T) => setData((d) => (d === null ? d : change(d))), []);
  return { data, error: failure?.message ?? null, failure: failure?.error ?? null, loading, reload, update };
}
