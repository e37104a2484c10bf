/**
 * The README and docs/ stand on their own: every relative link and every
 * path named in backticks as another document (`../…`, `/work/…`) points to a
 * file inside the repository, and the service contract the bot relies on is
 * the repository's own docs/service-contract.md.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "..");
const documents = [
  "README.md",
  ...readdirSync(join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];

/** Relative link targets and backticked paths that leave the document's folder. */
function targets(doc: string): string[] {
  const text = readFileSync(join(ROOT, doc), "utf8");
  // Code spans are code (`api.raw[method](params)`), not links.
  const prose = text.replace(/`[^`\n]*`/g, "");
  const links = [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((t) => !/^[a-z]+:/i.test(t) && !t.startsWith("#"));
  const named = [...text.matchAll(/`((?:\.\.\/|\/work\/)[^`\s]+\.md)`/g)].map((m) => m[1]!);
  return [...links, ...named].map((t) => t.split("#")[0]!).filter((t) => t !== "");
}

describe("documentation", () => {
  it.each(documents)("%s links only files inside the repository", (doc) => {
    for (const target of targets(doc)) {
      const path = resolve(dirname(join(ROOT, doc)), target);
      expect(relative(ROOT, path).startsWith(".."), `${doc} → ${target} leaves the repository`).toBe(false);
      expect(existsSync(path), `${doc} → ${target} does not exist`).toBe(true);
    }
  });

  it("the README points at the repository's own service contract, which links the pages holding its choices", () => {
    expect(targets("README.md")).toContain("docs/service-contract.md");
    expect(targets("docs/service-contract.md")).toEqual(expect.arrayContaining(["orders.md", "webhooks.md", "simulator.md"]));
    const contract = readFileSync(join(ROOT, "docs/service-contract.md"), "utf8");
    for (const fact of [
      "10 TRX",
      "24 h",
      "Idempotency-Key",
      "/v1/balance",
      "/v1/orders",
      "/v1/broadcasts",
      "/v1/public/pricing",
      "/v1/public/system",
      "duplicate_tx",
    ]) {
      expect(contract, fact).toContain(fact);
    }
  });
});
