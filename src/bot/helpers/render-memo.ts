/** Renders remembered per key at most; past it the memo starts over (a render is cheap, just not free on every update). */
const MEMO_LIMIT = 64;

/**
 * Remembers what a render returned for a key. For replies that depend only
 * on what the key names (the locale, the chat type): the translations are
 * loaded once and never change while the process runs, so `/help` need not be
 * translated afresh, line by line, for every user who asks.
 */
export function createRenderMemo<T>(): (key: string, render: () => T) => T {
  const memo = new Map<string, T>();
  return (key, render) => {
    const known = memo.get(key);
    if (known !== undefined) return known;
    const value = render();
    if (memo.size >= MEMO_LIMIT) memo.clear();
    memo.set(key, value);
    return value;
  };
}

/** The same, per object as well (a price list): a newer object starts its own memo, and an old one is forgotten with it. */
export function createRenderMemoBy<T>(): (of: object, key: string, render: () => T) => T {
  const memos = new WeakMap<object, (key: string, render: () => T) => T>();
  return (of, key, render) => {
    let memo = memos.get(of);
    if (memo === undefined) {
      memo = createRenderMemo<T>();
      memos.set(of, memo);
    }
    return memo(key, render);
  };
}
