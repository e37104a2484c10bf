import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { DecodedValue } from "../../src/shared/tron/contracts.js";
import { decodeRawData } from "../../src/shared/tron/raw-data.js";
import type { TxRejection } from "../../src/shared/tron/index.js";

/**
 * The corpus of real signed transactions (test/fixtures/tron-corpus): each
 * file copied from a public repository, named in its `source`, with the
 * verdict java-tron gives it. None of them was signed by this project.
 */

export interface CorpusEntry {
  file: string;
  /**
   * `url` when the source is an issue or a page rather than a file at a commit; `indexId` when it was
   * found by exact-string search of the public code index, which names the file's path but not its repository.
   */
  source: { repository: string; path: string; commit: string; url?: string; indexId?: string; raw_data: string };
  contractType: string;
  expected: { verdict: "accepted" } | { verdict: "refused"; reason: TxRejection; why: string };
  transaction: { txID: string; raw_data: Record<string, unknown>; raw_data_hex: string; signature: string[] };
}

const DIR = fileURLToPath(new URL("../fixtures/tron-corpus/", import.meta.url));

export function loadCorpus(): CorpusEntry[] {
  return readdirSync(DIR)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((file) => ({ file, ...(JSON.parse(readFileSync(DIR + file, "utf8")) as Omit<CorpusEntry, "file">) }));
}

/** Every corpus transaction is judged two minutes before its own expiration: a moment the service would still take it. */
export function ownTime(entry: Pick<CorpusEntry, "transaction">): number {
  return Number(entry.transaction.raw_data["expiration"]) - 120_000;
}

function jsonValue(v: DecodedValue): unknown {
  switch (v.kind) {
    case "address":
    case "bytes":
      return v.hex;
    case "int":
      return Number(v.value);
    case "resource":
    case "account_type":
      return v.name;
    case "bool":
      return v.value;
    case "votes":
      return v.votes.map((x) => ({ vote_address: x.address, vote_count: Number(x.count) }));
  }
}

/**
 * raw_data as a node prints it for these bytes, every field with its zero
 * value included (`call_value: 0`): used to keep a mutant's JSON consistent
 * with its mutated hex. Throws when the bytes cannot be read.
 */
export function printRawData(rawDataHex: string): Record<string, unknown> {
  const r = decodeRawData(rawDataHex);
  return {
    contract: r.contracts.map((c) => ({
      parameter: { value: Object.fromEntries(Object.entries(c.value).map(([k, v]) => [k, jsonValue(v)])), type_url: c.typeUrl },
      type: c.typeName,
      ...(c.permissionId === 0 ? {} : { Permission_id: c.permissionId }),
    })),
    ref_block_bytes: r.refBlockBytes,
    ref_block_hash: r.refBlockHash,
    expiration: Number(r.expiration),
    timestamp: Number(r.timestamp),
    fee_limit: Number(r.feeLimit),
    ...(r.data === "" ? {} : { data: r.data }),
  };
}
