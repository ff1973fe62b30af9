// Types for parse-prometheus-text-format@1.1.1 (it ships none): one family per metric name.
declare module "parse-prometheus-text-format" {
  export interface Sample {
    labels?: Record<string, string>;
    value?: string;
    buckets?: Record<string, string>;
    quantiles?: Record<string, string>;
    count?: string;
    sum?: string;
  }
  export interface Family {
    name: string;
    help: string;
    type: "COUNTER" | "GAUGE" | "HISTOGRAM" | "SUMMARY" | "UNTYPED";
    metrics: Sample[];
  }
  export default function parse(text: string): Family[];
}
