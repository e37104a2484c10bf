/**
 * A tiny Prometheus text-format registry. prom-client would pull a default
 * registry singleton and process collectors we do not need; counters and
 * gauges with labels are all /metrics publishes.
 */
type Labels = Record<string, string>;

interface Series {
  help: string;
  type: "counter" | "gauge";
  values: Map<string, { labels: Labels; value: number }>;
  collect?: () => number;
}

export interface Metrics {
  /** Adds `by` (default 1) to a counter. */
  inc(name: string, labels?: Labels, by?: number): void;
  /** Sets a gauge. */
  set(name: string, value: number, labels?: Labels): void;
  /** A gauge read at scrape time. */
  gauge(name: string, help: string, collect: () => number): void;
  /** Current value, for tests. */
  get(name: string, labels?: Labels): number;
  /** Prometheus text exposition format 0.0.4. */
  render(): string;
}

export const METRIC_HELP: Record<string, { help: string; type: "counter" | "gauge" }> = {
  bot_updates_total: { help: "Telegram updates handled, by update type and outcome", type: "counter" },
  service_calls_total: { help: "Service API calls, by endpoint and outcome", type: "counter" },
  webhooks_total: { help: "Service webhooks received, by outcome", type: "counter" },
  notifications_total: { help: "Push notifications, by outcome (queued, sent, failed, retried)", type: "counter" },
  tracked_items: { help: "Orders and broadcasts being tracked, by kind", type: "gauge" },
};

function labelKey(labels: Labels): string {
  return Object.keys(labels)
    .sort()
    .map((k) => `${k}=${labels[k]}`)
    .join(",");
}

function escapeLabel(value: string): string {
  return value.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/"/g, '\\"');
}

export function createMetrics(): Metrics {
  const series = new Map<string, Series>();
  // Every known family is published from the first scrape, before anything happened.
  for (const [name, known] of Object.entries(METRIC_HELP)) series.set(name, { ...known, values: new Map() });

  function seriesOf(name: string, fallbackType: "counter" | "gauge"): Series {
    let s = series.get(name);
    if (!s) {
      const known = METRIC_HELP[name];
      s = { help: known?.help ?? name, type: known?.type ?? fallbackType, values: new Map() };
      series.set(name, s);
    }
    return s;
  }

  return {
    inc(name, labels = {}, by = 1) {
      const s = seriesOf(name, "counter");
      const key = labelKey(labels);
      const entry = s.values.get(key);
      if (entry) entry.value += by;
      else s.values.set(key, { labels, value: by });
    },
    set(name, value, labels = {}) {
      seriesOf(name, "gauge").values.set(labelKey(labels), { labels, value });
    },
    gauge(name, help, collect) {
      series.set(name, { help, type: "gauge", values: new Map(), collect });
    },
    get(name, labels = {}) {
      const s = series.get(name);
      if (s?.collect) return s.collect();
      return s?.values.get(labelKey(labels))?.value ?? 0;
    },
    render() {
      const lines: string[] = [];
      for (const [name, s] of series) {
        lines.push(`# HELP ${name} ${s.help}`, `# TYPE ${name} ${s.type}`);
        if (s.collect) {
          lines.push(`${name} ${s.collect()}`);
          continue;
        }
        for (const { labels, value } of s.values.values()) {
          const rendered = Object.entries(labels)
            .map(([k, v]) => `${k}="${escapeLabel(v)}"`)
            .join(",");
          lines.push(rendered ? `${name}{${rendered}} ${value}` : `${name} ${value}`);
        }
      }
      return `${lines.join("\n")}\n`;
    },
  };
}
