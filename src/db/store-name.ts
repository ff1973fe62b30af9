// The store's name as the operator reads it (in /health and the operator's page): the product's word, not the dialect's.
import type { Store } from "./store";

export type StoreName = "sqlite" | "postgresql";

export const storeName = (store: Pick<Store, "dialect">): StoreName => (store.dialect === "sqlite" ? "sqlite" : "postgresql");
