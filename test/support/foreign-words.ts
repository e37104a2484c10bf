/**
 * What gives English away inside a Russian or Chinese text: a common English
 * word or a raw API code outside a <code> span. Shared by the locale and the
 * chart tests.
 */
/**
 * Words that give English away inside a Russian or Chinese sentence. The
 * project's accepted terms (TRX, USDT, TRON, API, Webhook, IANA, UTC, QR, ID,
 * Mini App, sun, TRC20 …) are deliberately absent.
 */
const ENGLISH_WORDS = new Set(
  `a about account active address after again all amount an and any are as at available balance be been before bot but by call cancel cancelled
  canceled cap chart charge charged chat check code confirm confirmed confirming contract cost daily day days default delegated delivery
  deposit done each energy error every expired failed fee fees first for from fulfilled has have help hour hours if in insufficient into
  instructions invalid is it its key last limit limits matching executing broadcasting minute minutes month monthly more new next no none not note
  notes now of off on one or order orders other our out paid payment pending per plan please price prices provider queue ready reason refund
  refunded reset retry saving second seconds see send sent service set settings spend spent start status stop success than that the then there
  this threshold time to today total transaction transfer try unknown until use wallet was week when will with yes you your`.split(/\s+/),
);

/** `snake_case` and `dotted.codes` of the API (`delivery_failed`, `order.fulfilled`, `balance.insufficient`). */
const RAW_CODE = /(?<![\w./@:-])[a-z][a-z0-9]*(?:(?:_[a-z0-9]+)+(?:\.[a-z][a-z0-9_]*)*|(?:\.[a-z][a-z0-9_]*)+)(?![\w/@-])/g;

/** The text a reader sees as words: without <code> spans, tags, links, commands and mentions. */
export function visibleWords(text: string): string {
  // Innermost spans first: a sample argument drawn as <code> may sit inside a message's own <code> span.
  let unquoted = text;
  for (let prev = ""; prev !== unquoted;) {
    prev = unquoted;
    unquoted = unquoted.replace(/<code>(?:(?!<code>)[\s\S])*?<\/code>/g, " ");
  }
  return unquoted
    .replace(/<pre>[\s\S]*?<\/pre>/g, " ")
    .replace(/<[^>]+>/g, " ")
    .replace(/https?:\/\/\S+/g, " ")
    .replace(/(?<![\w/])[/@][A-Za-z_][\w@.]*/g, " ");
}

/** English words and raw codes found in `text`, outside <code>. */
export function foreignWords(text: string): string[] {
  const visible = visibleWords(text);
  const codes = visible.match(RAW_CODE) ?? [];
  const words = (visible.replace(RAW_CODE, " ").match(/(?<!\w)[A-Za-z]+(?!\w)/g) ?? []).filter((w) => ENGLISH_WORDS.has(w.toLowerCase()));
  return [...words, ...codes];
}
