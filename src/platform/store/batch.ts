import type { KeyValue, KeyValueEntry } from "./types.js";

/** `kv.getMany` where the namespace has it, else one `get` per key. */
export function getMany(kv: KeyValue, keys: readonly string[]): Promise<unknown[]> {
  if (keys.length === 0) return Promise.resolve([]);
  if (kv.getMany) return kv.getMany(keys);
  return Promise.all(keys.map((key) => kv.get(key)));
}

/** `kv.setMany` where the namespace has it (one round trip), else one `set` per entry. */
export async function setMany(kv: KeyValue, entries: readonly KeyValueEntry[]): Promise<void> {
  if (entries.length === 0) return;
  if (kv.setMany) return kv.setMany(entries);
  await Promise.all(entries.map((entry) => kv.set(entry.key, entry.value, entry.ttlMs)));
}

/** `kv.deleteMany` where the namespace has it, else one `delete` per key. */
export async function deleteMany(kv: KeyValue, keys: readonly string[]): Promise<void> {
  if (keys.length === 0) return;
  if (kv.deleteMany) return kv.deleteMany(keys);
  await Promise.all(keys.map((key) => kv.delete(key)));
}
