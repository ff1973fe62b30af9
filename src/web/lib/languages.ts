// Language codes (ISO 639-1, as GET /health gives them) as names a person reads.

/** ISO codes as names the operator reads ("English"); a long list is counted rather than spelled out. */
export function languageList(codes: string[] | null | undefined): string {
  if (!codes) return "Not known (no model card names them)";
  const names = new Intl.DisplayNames(["en"], { type: "language" });
  const named = codes.map((c) => names.of(c) ?? c);
  return named.length > 8 ? `${named.length} languages (${named.slice(0, 6).join(", ")}, …)` : named.join(", ");
}
