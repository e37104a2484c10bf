/**
 * What every screen of the app shares: the launch data and Telegram's bridge, the words the server handed
 * over, element building (text only, never HTML), the API calls, and the screens' switch.
 */
import { applyTheme, launchParams, telegramHost } from "./telegram.js";

interface AppConfig {
  defaultLocale: string;
  shell: Record<string, Record<string, string>>;
}

export interface Me {
  locale: string;
  texts: Record<string, string>;
  linked: boolean;
  balance?: { availableSun: string; availableTrx: string; depositAddress: string | null } | null;
  zoneText?: string;
  currentMonth?: string;
  /** The Send USDT screen exists (the bot serves /send's signing page). */
  send?: boolean;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly text: string | undefined,
  ) {
    super(code);
  }
}

const config = JSON.parse(document.getElementById("app-config")?.textContent ?? "{}") as AppConfig;
export const host = telegramHost();
export const { initData, theme } = launchParams(location.hash);
/** The screen a bot's button opens (`/app?screen=spend&month=2026-11`): the query, which Telegram keeps. */
export const start = new URLSearchParams(location.search);
applyTheme(theme);
host.onTheme(applyTheme);

export const screen = document.getElementById("screen") as HTMLElement;
export const header = document.getElementById("balance") as HTMLElement;

/** The launch data's language picks the shell's words until the server says the chat's. */
function shellLocale(): string {
  try {
    const user = JSON.parse(new URLSearchParams(initData ?? "").get("user") ?? "{}") as { language_code?: string };
    const base = (user.language_code ?? navigator.language).toLowerCase().split(/[-_]/)[0] ?? "";
    if (base in config.shell) return base;
    if (["uk", "be", "kk"].includes(base)) return "ru";
  } catch {
    // Unreadable launch data is the API's to refuse; the words fall back.
  }
  return config.defaultLocale;
}

let texts: Record<string, string> = config.shell[shellLocale()] ?? {};
export function addTexts(more: Record<string, string>): void {
  texts = { ...texts, ...more };
}
export const t = (key: string, vars: Record<string, string | number> = {}): string =>
  (texts[key] ?? key).replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  node.append(...children);
  return node;
}

export function button(id: string, text: string, onClick: () => void, attrs: Record<string, string> = {}): HTMLButtonElement {
  const b = el("button", { type: "button", ...(id === "" ? {} : { id }), ...attrs }, text);
  b.addEventListener("click", onClick);
  return b;
}

export async function call(path: string): Promise<Response> {
  const response = await fetch(path, { headers: { "X-Telegram-Init-Data": initData ?? "" }, credentials: "omit", cache: "no-store" });
  if (response.ok) return response;
  const body = (await response.json().catch(() => ({}))) as { error?: string; message?: string };
  throw new ApiError(response.status, body.error ?? String(response.status), body.message);
}

export async function getJson<T>(path: string): Promise<T> {
  return (await (await call(path)).json()) as T;
}

/** A POST whose refusals other than 401/403 are answers to show (a bad amount, a taken label). */
export async function post(path: string, body: unknown): Promise<{ status: number; body: unknown }> {
  const response = await fetch(path, {
    method: "POST",
    headers: { "X-Telegram-Init-Data": initData ?? "", "Content-Type": "application/json" },
    body: JSON.stringify(body),
    credentials: "omit",
    cache: "no-store",
  });
  if (response.status === 401 || response.status === 403) {
    const refused = (await response.json().catch(() => ({}))) as { error?: string; message?: string };
    throw new ApiError(response.status, refused.error ?? String(response.status), refused.message);
  }
  return { status: response.status, body: (await response.json().catch(() => ({}))) as unknown };
}

export function showMessage(text: string, retry?: () => void): void {
  const children: Node[] = [el("p", { class: "status", id: "status" }, text)];
  if (retry) children.push(button("retry", t("mini-app-retry"), retry));
  screen.replaceChildren(...children);
}

export function showError(error: unknown, retry: () => void): void {
  if (error instanceof ApiError && error.status === 401) {
    // Refused launch data shows nothing of any account: the header goes too.
    header.hidden = true;
    host.setMain(undefined);
    showMessage(error.text ?? t(error.code === "expired" ? "mini-app-expired" : "mini-app-refused"));
    return;
  }
  showMessage(error instanceof ApiError && error.text ? error.text : t("mini-app-failed"), retry);
}

export function linkTo(url: string): HTMLAnchorElement {
  const a = el("a", { href: url, target: "_blank", rel: "noopener noreferrer", class: "explorer" }, t("mini-app-explorer"));
  a.addEventListener("click", (event) => {
    if (host.openLink(url)) event.preventDefault();
  });
  return a;
}

/**
 * A form's primary action: Telegram's MainButton where the host has one (the page's own button is then
 * hidden), else the page's button. Undefined hides Telegram's and leaves the page's alone.
 */
export function primary(pageButton: HTMLButtonElement, text: string, action: () => void): void {
  const onTelegram = host.setMain({ text, onClick: action });
  pageButton.hidden = onTelegram;
}

/** A new screen starts with no back handler and no main button: each screen sets its own. */
export function beginScreen(back?: () => void): void {
  host.setBack(back);
  host.setMain(undefined);
}

export const TAB_NAMES = ["history", "order", "send", "spend", "limits", "addresses", "keep"] as const;
export type TabName = (typeof TAB_NAMES)[number];
const TAB_KEYS: Record<TabName, string> = {
  history: "mini-app-history",
  order: "mini-app-tab-order",
  send: "mini-app-tab-send",
  spend: "mini-app-tab-spend",
  limits: "mini-app-tab-limits",
  addresses: "mini-app-tab-addresses",
  keep: "mini-app-tab-keep",
};

/** Each screen registers how it is drawn; the switch and the bot's links open them by name. */
export const screens = {} as Record<TabName, (me: Me) => Promise<void>>;

export function tabs(me: Me, current: TabName): HTMLElement {
  const nav = el("nav", { class: "tabs", id: "tabs" });
  for (const name of TAB_NAMES) {
    if (name === "send" && me.send !== true) continue;
    nav.append(button("", t(TAB_KEYS[name]), () => void screens[name](me), { "data-tab": name, "aria-pressed": String(name === current) }));
  }
  // The switch scrolls sideways on a phone: the open screen's tab stays in sight.
  requestAnimationFrame(() => nav.querySelector('[aria-pressed="true"]')?.scrollIntoView({ block: "nearest", inline: "nearest" }));
  return nav;
}

export function drawBalance(me: Me): void {
  const children: Node[] = [el("div", { class: "label" }, t("mini-app-balance"))];
  if (me.balance) {
    children.push(
      el("div", { class: "amount", id: "balance-trx", "data-sun": me.balance.availableSun }, `${me.balance.availableTrx} TRX`),
      el("div", { class: "hint", id: "balance-sun" }, t("mini-app-exact-sun", { sun: me.balance.availableSun })),
    );
    if (me.balance.depositAddress)
      children.push(el("div", { class: "hint" }, `${t("mini-app-deposit")}: `, el("span", { class: "mono", id: "deposit" }, me.balance.depositAddress)));
  } else {
    children.push(el("div", { class: "hint", id: "balance-unavailable" }, t("mini-app-balance-unavailable")));
  }
  header.replaceChildren(...children);
  header.hidden = false;
}
