/**
 * What the vault costs per call on the hot paths: `fingerprint` (every
 * `chats.account()`), `open` (every read of a sealed API key or secret), `seal`,
 * and the pair `chats.account()` makes (open the key, fingerprint it), next to
 * a bare HMAC-SHA-256 under a key already at hand (the floor).
 *
 *   npx tsx bench/vault-keys.ts
 *   BENCH_VAULT=/path/to/another/vault.ts npx tsx bench/vault-keys.ts   # another build's vault, same run shape
 *
 * Rounds alternate the cases; each figure is the median over the rounds of
 * µs per call. Not part of `npm run bench`: a micro benchmark, no assertion.
 */
import { createHmac, randomBytes } from "node:crypto";
import { pathToFileURL } from "node:url";
import type { Vault, VaultDeps } from "../src/shared/vault.js";

const ROUNDS = Number(process.env["BENCH_ROUNDS"] ?? 7);
const CALLS = Number(process.env["BENCH_CALLS"] ?? 20_000);

async function loadVault(): Promise<(deps: VaultDeps) => Vault> {
  const path = process.env["BENCH_VAULT"];
  const mod = (await import(path ? pathToFileURL(path).href : "../src/shared/vault.js")) as { createVault: (deps: VaultDeps) => Vault };
  return mod.createVault;
}

function perCallUs(calls: number, run: (i: number) => unknown): number {
  let sink = 0;
  const start = process.hrtime.bigint();
  for (let i = 0; i < calls; i += 1) {
    const out = run(i);
    if (typeof out === "string") sink += out.length;
  }
  const us = Number(process.hrtime.bigint() - start) / 1_000 / calls;
  if (sink < 0) console.log(sink);
  return us;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function main(): Promise<void> {
  const createVault = await loadVault();
  const vault = createVault({ key: randomBytes(32), previousKey: randomBytes(32) });
  const apiKey = `sk_live_${randomBytes(24).toString("base64url")}`;
  const sealed = vault.seal(apiKey, 4242, "api-key");
  const hmacKey = randomBytes(32);
  const cases: Record<string, (i: number) => unknown> = {
    "bare HMAC-SHA-256 (key at hand)": () => createHmac("sha256", hmacKey).update(apiKey, "utf8").digest().subarray(0, 16).toString("base64url"),
    "vault.fingerprint": () => vault.fingerprint(apiKey, "account-key"),
    "vault.open (api key)": () => vault.open(sealed, 4242, "api-key").plaintext,
    "vault.seal (api key)": () => vault.seal(apiKey, 4242, "api-key"),
    "chats.account() shape: open + fingerprint": () => vault.fingerprint(vault.open(sealed, 4242, "api-key").plaintext, "account-key"),
  };
  const figures = new Map<string, number[]>(Object.keys(cases).map((name) => [name, []]));
  // Warm-up: JIT and OpenSSL's first-use costs are not what is measured.
  for (const run of Object.values(cases)) perCallUs(2_000, run);
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const [name, run] of Object.entries(cases)) figures.get(name)!.push(perCallUs(CALLS, run));
  }
  console.log(`vault ${process.env["BENCH_VAULT"] ?? "src/shared/vault.ts"}: ${ROUNDS} rounds × ${CALLS} calls, median µs per call`);
  for (const [name, values] of figures) {
    console.log(
      `  ${name.padEnd(44)} ${median(values).toFixed(2).padStart(7)} µs   (rounds ${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)})`,
    );
  }
}

await main();
