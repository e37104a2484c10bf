/**
 * Address poisoning: a thief sends dust from an address generated to share the first and last characters of
 * one the victim uses, hoping it is copied from the history next time. Wallets show addresses shortened to
 * exactly those characters, so a recipient that matches a known address there but differs from it is flagged
 * before anything else. Four at each end (the leading `T` included) is what cheap vanity generators reach and
 * what "TQCq…S9pu" shows; it flags more than a thief can forge, never less.
 */
const MATCHED_CHARS = 4;

/** The known address `to` imitates, if any: same ends, different address. */
export function lookalikeOf(to: string, known: Iterable<string>): string | undefined {
  for (const address of known) {
    if (address === to) continue;
    if (address.slice(0, MATCHED_CHARS) === to.slice(0, MATCHED_CHARS) && address.slice(-MATCHED_CHARS) === to.slice(-MATCHED_CHARS)) return address;
  }
  return undefined;
}
