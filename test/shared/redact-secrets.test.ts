import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { REDACTED, redactSecrets } from "../../src/shared/redact-secrets.js";

const TX = "ab".repeat(32);

describe("redactSecrets", () => {
  it.each([
    ["invalid api_key=sk_live_0123456789abcdef given", "sk_live_0123456789abcdef"],
    ["X-Api-Key: abcdefgh12345678 refused", "abcdefgh12345678"],
    ["Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.abc123", "eyJhbGciOiJIUzI1NiJ9"],
    ["signature secret whsec_0123456789abcdef0123 does not match", "whsec_0123456789abcdef0123"],
    [`your private key ${"cd".repeat(32)} was sent`, "cd".repeat(32)],
    ["token Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZmdo is stale", "Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZmdo"],
    ['{"password":"hunter2hunter2"}', "hunter2hunter2"],
  ])("blanks the secret in %j", (text, secret) => {
    const out = redactSecrets(text);
    expect(out).not.toContain(secret);
    expect(out).toContain(REDACTED);
  });

  it.each([
    "toAddress TQCq78eKWLd98P5Eu155knhkacGPAhS9pu is not activated",
    "order 0123456789abcdef01234567 not found",
    `txID mismatch: declared=${TX} derived=${"ef".repeat(32)}`,
    `transaction ${TX} is already known`,
    "amount must be between 1 and 100000000 sun",
    "field durationSec must be one of 3600, 86400",
  ])("keeps ordinary details as they are: %j", (text) => {
    expect(redactSecrets(text)).toBe(text);
  });

  it("never leaves a planted key in any surrounding text (property)", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), fc.string({ maxLength: 80 }), fc.stringMatching(/^[0-9a-f]{32}$/), (before, after, body) => {
        const key = `sk_live_${body}`;
        expect(redactSecrets(`${before} ${key} ${after}`)).not.toContain(key);
      }),
      { numRuns: 2_000, seed: 8 },
    );
  });
});
