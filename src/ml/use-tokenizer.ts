// The Universal Sentence Encoder lite tokenizer: SentencePiece-style unigram segmentation over a scored vocab.
//
// Ported from @tensorflow-models/universal-sentence-encoder (and @energetic-ai/embeddings, both Apache-2.0) so that
// we need not import @energetic-ai/core, whose import-time backend start cannot be pointed at embedded wasm files.
// The quirks below (ties go to the later piece, a zero best counts as "unset", backtracking by UTF-16 length,
// merged unknowns) are kept on purpose: the model was trained on exactly this segmentation.

const SEPARATOR = "\u2581";
/** The first six vocab entries are control symbols (unknown, <s>, </s>, extras) never matched as text. */
const RESERVED_SYMBOLS = 6;
const UNKNOWN_ID = 0;

export type UseVocabulary = [piece: string, score: number][];

interface TrieNode {
  children: Map<string, TrieNode>;
  /** Set when a vocab piece ends here. */
  piece?: { id: number; score: number; symbols: number };
}

export class UseTokenizer {
  private root: TrieNode = { children: new Map() };

  constructor(private vocabulary: UseVocabulary) {
    for (let id = RESERVED_SYMBOLS; id < vocabulary.length; id++) {
      const [piece, score] = vocabulary[id];
      const symbols = Array.from(piece);
      let node = this.root;
      for (const s of symbols) {
        let next = node.children.get(s);
        if (!next) node.children.set(s, (next = { children: new Map() }));
        node = next;
      }
      node.piece = { id, score, symbols: symbols.length };
    }
  }

  encode(text: string): number[] {
    const normalized = text.normalize("NFKC");
    const input = normalized.length > 0 ? SEPARATOR + normalized.replace(/ /g, SEPARATOR) : normalized;
    const symbols = Array.from(input);
    const n = symbols.length;
    const best = new Array<number>(n + 1).fill(0);
    const words = new Array<number>(n + 1).fill(0);

    // Lattice: for each end position, the candidate pieces ending there, in ascending start order (as pushed).
    const ending: { start: number; id: number; score: number }[][] = Array.from({ length: n + 1 }, () => []);
    for (let start = 0; start < n; start++) {
      let node = this.root.children.get(symbols[start]);
      let matched = false;
      for (let i = start; i < n && node; i++) {
        if (node.piece) {
          ending[start + node.piece.symbols].push({ start, id: node.piece.id, score: node.piece.score });
          matched = true;
        }
        node = node.children.get(symbols[i + 1]);
      }
      if (!matched) ending[start + 1].push({ start, id: UNKNOWN_ID, score: 0 });
    }
    for (let end = 0; end <= n; end++) {
      for (const c of ending[end]) {
        const score = c.score + best[c.start];
        if (best[end] === 0 || score >= best[end]) {
          best[end] = score;
          words[end] = c.id;
        }
      }
    }

    const reversed: number[] = [];
    for (let i = words.length - 1; i > 0; i -= this.vocabulary[words[i]][0].length) reversed.push(words[i]);
    const merged: number[] = [];
    let previousUnknown = false;
    for (const id of reversed) {
      if (!(previousUnknown && id === UNKNOWN_ID)) merged.push(id);
      previousUnknown = id === UNKNOWN_ID;
    }
    return merged.reverse();
  }
}
