/**
 * Appends tags to one record through `RecordStore.update`, the read-modify-write
 * every feature uses; shared by the store contract and its child process
 * (fixtures/append-writer.ts) so both sides write the very same way.
 */
import { setTimeout as delay } from "node:timers/promises";
import type { Logger } from "pino";
import { z } from "zod";
import { createRecordStore, type RecordStore } from "../../../src/platform/store/record-store.js";
import type { KeyValue } from "../../../src/platform/store/types.js";

const tagsSchema = z.object({ tags: z.array(z.string()) });
export type Tags = z.infer<typeof tagsSchema>;

export function tagRecords(kv: KeyValue, logger: Logger, maxAttempts?: number): RecordStore<Tags> {
  return createRecordStore({ kv, schema: tagsSchema, version: 1, logger, name: "tags", ...(maxAttempts === undefined ? {} : { maxAttempts }) });
}

/** `count` updates at once, each adding `<tag>-<i>`; a pause between read and write widens the window another writer can hit. */
export async function appendTags(records: RecordStore<Tags>, id: string, tag: string, count: number): Promise<void> {
  await Promise.all(
    Array.from({ length: count }, (_, i) =>
      records.update(id, async (current) => {
        await delay(1);
        return { tags: [...(current?.tags ?? []), `${tag}-${i}`] };
      }),
    ),
  );
}
