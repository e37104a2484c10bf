import type { TrackedItem } from "./tracked-item.js";

export interface LiveEntry {
  item: TrackedItem;
}

type Gauge = { set(name: string, value: number, labels?: Record<string, string>): void };

const KINDS = ["order", "broadcast"] as const;

/**
 * The items this process polls, keyed as in the store, with the
 * `tracked_items` gauge per kind kept exact as entries come and go: the counts
 * change by one with each entry, so adopting thousands of items costs one
 * gauge update each instead of a walk over every live item.
 */
export class LiveItems {
  private readonly entries = new Map<string, LiveEntry>();
  private readonly counts = { order: 0, broadcast: 0 };

  constructor(private readonly metrics?: Gauge) {}

  get size(): number {
    return this.entries.size;
  }

  get(key: string): LiveEntry | undefined {
    return this.entries.get(key);
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  set(key: string, entry: LiveEntry): void {
    const before = this.entries.get(key);
    this.entries.set(key, entry);
    if (before?.item.kind === entry.item.kind) return;
    if (before) this.count(before.item.kind, -1);
    this.count(entry.item.kind, 1);
  }

  delete(key: string): void {
    const before = this.entries.get(key);
    if (!before) return;
    this.entries.delete(key);
    this.count(before.item.kind, -1);
  }

  /** Empties the map; the gauge says 0 for every kind then. */
  clear(): void {
    this.entries.clear();
    this.counts.order = 0;
    this.counts.broadcast = 0;
    this.publish();
  }

  keys(): IterableIterator<string> {
    return this.entries.keys();
  }

  values(): IterableIterator<LiveEntry> {
    return this.entries.values();
  }

  [Symbol.iterator](): IterableIterator<[string, LiveEntry]> {
    return this.entries[Symbol.iterator]();
  }

  /** Live entries of `kind`, as the gauge reports it. */
  countOf(kind: TrackedItem["kind"]): number {
    return this.counts[kind];
  }

  private count(kind: TrackedItem["kind"], change: number): void {
    this.counts[kind] += change;
    this.publish();
  }

  /** Both kinds, as a scrape right after the first item expects a 0 for the other one. */
  private publish(): void {
    if (!this.metrics) return;
    for (const kind of KINDS) this.metrics.set("tracked_items", this.counts[kind], { kind });
  }
}
