import { AsyncLocalStorage } from "node:async_hooks";

/**
 * Records read once per unit of work: one Telegram update, one tracked change, one webhook event. Inside a unit
 * a record store that takes the memo answers a second read of a record from the first (or from its own write in
 * the unit), so the dozen places an update asks for its chat cost one store read, not a dozen. Outside a unit
 * every read goes to the store, and so does what a unit started and left running once the unit has ended.
 *
 * What a unit sees is the record as it was when the unit first read it, plus the unit's own writes through the
 * same record store: a write made meanwhile by another unit or another process is seen by the next unit. That is
 * what a handler that read the record once at its start would see, so a store takes the memo only when its
 * readers already act on one read (the chat record, the chat's limits); read-modify-write (`update`) always reads
 * the store.
 */
export interface ReadMemo {
  /** Runs `work` as a unit with a memo of its own; inside a unit already open, as part of that unit. */
  run<T>(work: () => Promise<T>): Promise<T>;
  /** The current unit's memo of one record store; undefined outside a unit. */
  of(store: string): StoreMemo | undefined;
  /**
   * Ends the memo: later units read the store. Node keeps every AsyncLocalStorage that ever ran in the list its
   * promise hook walks for each new promise, so a memo left open after its app stopped slows every promise of the
   * process (a test worker that started fifty apps walked fifty).
   */
  close(): void;
}

export interface StoreMemo {
  /** A read of `id` started now: call `settle` with its answer. */
  begin(id: string): { known: true; value: unknown } | { known: false; settle(value: unknown): void };
  /** `id` was written in this unit (undefined: deleted). */
  wrote(id: string, value: unknown): void;
}

/**
 * The unit's context, as every callback the unit creates keeps it: a timer armed in a unit (the next poll of a
 * tracked item) holds this object until it fires. So the records go with the end of the unit, and what stays
 * behind is this small object, not the unit's copies of the records it read.
 */
interface Unit {
  /** Undefined once the unit's work has settled: what it started and left running (a watch, a timer) reads the store. */
  memo: UnitMemo | undefined;
}

interface UnitMemo {
  stores: Map<string, Map<string, { value: unknown }>>;
  /** Writes seen per `store\0id`: a read that began before a write must not put its older answer in. */
  writes: Map<string, number>;
}

export function createReadMemo(): ReadMemo {
  const units = new AsyncLocalStorage<Unit>();
  let closed = false;
  return {
    async run(work) {
      if (closed || units.getStore()?.memo !== undefined) return work();
      const unit: Unit = { memo: { stores: new Map(), writes: new Map() } };
      try {
        return await units.run(unit, work);
      } finally {
        unit.memo = undefined;
      }
    },
    of(store) {
      const unit = units.getStore()?.memo;
      if (unit === undefined) return undefined;
      let known = unit.stores.get(store);
      if (known === undefined) unit.stores.set(store, (known = new Map<string, { value: unknown }>()));
      const records = known;
      const writeKey = (id: string) => `${store}\0${id}`;
      return {
        begin(id) {
          const hit = records.get(id);
          // Each read gets its own copy, as a read from the store would: a reader that changes it changes nothing else.
          if (hit !== undefined) return { known: true, value: structuredClone(hit.value) };
          const writesBefore = unit.writes.get(writeKey(id)) ?? 0;
          return {
            known: false,
            settle(value) {
              if ((unit.writes.get(writeKey(id)) ?? 0) === writesBefore) records.set(id, { value: structuredClone(value) });
            },
          };
        },
        wrote(id, value) {
          unit.writes.set(writeKey(id), (unit.writes.get(writeKey(id)) ?? 0) + 1);
          records.set(id, { value: structuredClone(value) });
        },
      };
    },
    close() {
      closed = true;
      units.disable();
    },
  };
}
