// The slice of autocannon's API the benchmarks use (the package ships no types).
declare module "autocannon" {
  interface Options {
    url: string;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    connections?: number;
    duration?: number;
    amount?: number;
    idReplacement?: boolean;
    requests?: Array<{ method?: string; headers?: Record<string, string>; setupRequest?: (req: Record<string, unknown>) => Record<string, unknown> }>;
  }
  interface Histogram { average: number; total: number; p50: number; p99: number }
  interface Result { requests: Histogram; latency: Histogram; non2xx: number; errors: number }
  function autocannon(opts: Options): Promise<Result>;
  export default autocannon;
}
