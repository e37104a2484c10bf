/**
 * The metrics of one app, on a prom-client `Registry` of its own: nothing
 * goes to prom-client's global default registry and no process collectors
 * run, so two apps in one process (tests) never share or clash. This is the
 * one module that imports prom-client.
 */
import { Counter, Gauge, Histogram, Registry } from "prom-client";
import type { ServiceCallEvent } from "./service/create-service-client.js";

const COUNTERS = {
  bot_updates_total: { help: "Telegram updates handled, by update type and outcome", labelNames: ["type", "outcome"] },
  service_calls_total: { help: "Service API calls, by endpoint and outcome", labelNames: ["endpoint", "outcome"] },
  webhooks_total: { help: "Service webhooks received, by outcome", labelNames: ["outcome"] },
  telegram_updates_total: {
    help: "Telegram updates posted to /telegram (webhook mode), by outcome (accepted, duplicate, taken_over)",
    labelNames: ["outcome"],
  },
  notifications_total: { help: "Push notifications, by outcome (queued, sent, superseded, failed, retried)", labelNames: ["outcome"] },
} as const;

const GAUGES = {
  tracked_items: { help: "Orders and broadcasts being tracked, by kind", labelNames: ["kind"] },
} as const;

const HISTOGRAMS = {
  service_call_duration_seconds: {
    help: "Service API calls from first attempt to final answer (retries and waits included), by endpoint and outcome",
    labelNames: ["endpoint", "outcome"],
    // From a cached loopback answer to a call that used its whole retry budget.
    buckets: [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  },
} as const;

type Families = typeof COUNTERS & typeof GAUGES & typeof HISTOGRAMS;
export type CounterName = keyof typeof COUNTERS;
export type GaugeName = keyof typeof GAUGES;
export type HistogramName = keyof typeof HISTOGRAMS;
export type MetricName = keyof Families;
/** The labels a family was declared with, each required. */
export type LabelsOf<N extends MetricName> = Record<Families[N]["labelNames"][number], string>;

export interface Metrics {
  /** Adds `by` (default 1) to a counter. */
  inc<N extends CounterName>(name: N, labels: LabelsOf<N>, by?: number): void;
  /** Sets a gauge. */
  set<N extends GaugeName>(name: N, value: number, labels: LabelsOf<N>): void;
  /** Records one observation (seconds for `_seconds` histograms). */
  observe<N extends HistogramName>(name: N, value: number, labels: LabelsOf<N>): void;
  /** Current value of one counter or gauge series (0 when never touched), for tests and benches. */
  get<N extends CounterName | GaugeName>(name: N, labels: LabelsOf<N>): Promise<number>;
  /** Prometheus text exposition format 0.0.4. */
  render(): Promise<string>;
  /** The Content-Type of `render()`. */
  readonly contentType: string;
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  // Every family is declared up front, so each is published from the first scrape.
  const counters = new Map<string, Counter>();
  const gauges = new Map<string, Gauge>();
  const histograms = new Map<string, Histogram>();
  for (const [name, spec] of Object.entries(COUNTERS)) {
    counters.set(name, new Counter({ name, help: spec.help, labelNames: spec.labelNames, registers: [registry] }));
  }
  for (const [name, spec] of Object.entries(GAUGES)) {
    gauges.set(name, new Gauge({ name, help: spec.help, labelNames: spec.labelNames, registers: [registry] }));
  }
  for (const [name, spec] of Object.entries(HISTOGRAMS)) {
    histograms.set(name, new Histogram({ name, help: spec.help, labelNames: spec.labelNames, buckets: [...spec.buckets], registers: [registry] }));
  }
  const family = <T>(map: Map<string, T>, name: string): T => {
    const metric = map.get(name);
    if (!metric) throw new Error(`unknown metric ${name}`);
    return metric;
  };

  return {
    contentType: registry.contentType,
    inc(name, labels, by = 1) {
      family(counters, name).inc(labels, by);
    },
    set(name, value, labels) {
      family(gauges, name).set(labels, value);
    },
    observe(name, value, labels) {
      family(histograms, name).observe(labels, value);
    },
    async get(name, labels) {
      const metric: Counter | Gauge = counters.get(name) ?? family(gauges, name);
      const wanted = Object.entries(labels as Record<string, string>);
      const { values } = await metric.get();
      const series = values.find((v) => {
        const own = Object.entries(v.labels);
        return own.length === wanted.length && wanted.every(([k, x]) => v.labels[k] === x);
      });
      return series?.value ?? 0;
    },
    render() {
      return registry.metrics();
    },
  };
}

/** The service client's `onCall` hook: counts each call and records how long it took. */
export function recordServiceCalls(metrics: Metrics): (event: ServiceCallEvent) => void {
  return ({ endpoint, outcome, ms }) => {
    metrics.inc("service_calls_total", { endpoint, outcome });
    metrics.observe("service_call_duration_seconds", ms / 1000, { endpoint, outcome });
  };
}
