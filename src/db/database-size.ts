// The database's size for the operator's page and /metrics: SQLite's pages, or PostgreSQL's own figure for its database.
import { onePer } from "../lib/one-per";
import type { Store } from "./store";

const sizeReader = onePer((store: Store): (() => Promise<number>) => {
  if (store.sqlite) {
    // The main file's pages (the WAL is not counted: it is folded back at each checkpoint); a pragma, so on the handle.
    const pages = store.sqlite.query<{ n: number }, []>("SELECT page_count * page_size AS n FROM pragma_page_count(), pragma_page_size()");
    return async () => pages.get()?.n ?? 0;
  }
  // Tables, indexes and TOAST of this database on the server's disk (what pg_dump would read, and more).
  const size = store.query<{ n: number }, []>("SELECT pg_database_size(current_database()) AS n");
  return async () => (await size.get())?.n ?? 0;
});

/** Bytes the instance's data takes in its store. */
export const databaseBytes = (store: Store): Promise<number> => sizeReader(store)();
