// What scripts/bench/web-labels.ts hands its page (web-labels-page.ts, typechecked with the web app) and gets back.

export interface BenchData { keys: string[]; xs: number[]; ys: number[]; sizes: number[]; labels: string[]; order: string[] }
export interface Step { x: number; y: number; ratio: number; segment: string; selected: string | null; move: { key: string; x: number; y: number } | null }
export interface Frame { segment: string; ratio: number; product: number; baseline: number; floor: number; labels: number; same: boolean; diff: string }
