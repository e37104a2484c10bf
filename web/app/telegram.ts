/**
 * The page's side of Telegram's Mini App bridge, without Telegram's SDK script (the page loads nothing from
 * another host): events go to the native apps through `TelegramWebviewProxy.postEvent`, to Telegram Desktop
 * through `external.notify` and to Telegram Web (which frames the page) by `postMessage`; events come back
 * through `Telegram.WebView.receiveEvent` or `message`. When a `Telegram.WebApp` object is present (the SDK
 * was loaded by someone, or a test stands in for it) it is used instead. Outside Telegram all of it is inert.
 */

interface WebAppLike {
  ready(): void;
  expand(): void;
  openLink?(url: string): void;
  themeParams?: Record<string, string>;
  onEvent?(event: string, handler: () => void): void;
  BackButton?: { show(): void; hide(): void; onClick(cb: () => void): void; offClick(cb: () => void): void };
  MainButton?: { setText(text: string): void; show(): void; hide(): void; enable(): void; onClick(cb: () => void): void; offClick(cb: () => void): void };
}

interface TelegramWindow {
  Telegram?: { WebApp?: WebAppLike; WebView?: { receiveEvent?: (type: string, data: unknown) => void } };
  TelegramWebviewProxy?: { postEvent(type: string, data: string): void };
  external?: { notify?: (message: string) => void };
}

export interface Host {
  ready(): void;
  /** Shows Telegram's back button with this handler, or hides it (undefined). */
  setBack(handler: (() => void) | undefined): void;
  /**
   * Shows Telegram's main button with this text and action, or hides it (undefined); false when the host has
   * none (a plain browser), so the page keeps its own button.
   */
  setMain(main: { text: string; onClick: () => void } | undefined): boolean;
  /** Opens a link outside the app (the explorer); false when the page should follow the link itself. */
  openLink(url: string): boolean;
  onTheme(handler: (params: Record<string, string>) => void): void;
}

const TELEGRAM_WEB = "https://web.telegram.org";

function sdkHost(webApp: WebAppLike): Host {
  let back: (() => void) | undefined;
  const onBack = () => back?.();
  webApp.BackButton?.onClick(onBack);
  let main: (() => void) | undefined;
  webApp.MainButton?.onClick(() => main?.());
  return {
    ready() {
      webApp.ready();
      webApp.expand();
    },
    setBack(handler) {
      back = handler;
      if (handler) webApp.BackButton?.show();
      else webApp.BackButton?.hide();
    },
    setMain(next) {
      const button = webApp.MainButton;
      main = next?.onClick;
      if (!button) return false;
      if (next === undefined) button.hide();
      else {
        button.setText(next.text);
        button.enable();
        button.show();
      }
      return next !== undefined;
    },
    openLink(url) {
      if (!webApp.openLink) return false;
      webApp.openLink(url);
      return true;
    },
    onTheme(handler) {
      webApp.onEvent?.("themeChanged", () => handler(webApp.themeParams ?? {}));
    },
  };
}

function bridgeHost(w: Window, tw: TelegramWindow): Host {
  const handlers = new Map<string, (data: Record<string, unknown>) => void>();
  const dispatch = (type: string, data: unknown) => handlers.get(type)?.((typeof data === "object" && data !== null ? data : {}) as Record<string, unknown>);
  const framed = w.parent !== w;
  const native = tw.TelegramWebviewProxy !== undefined || typeof tw.external?.notify === "function";
  const inTelegram = native || framed;
  function post(eventType: string, eventData: Record<string, unknown> = {}): void {
    if (tw.TelegramWebviewProxy) tw.TelegramWebviewProxy.postEvent(eventType, JSON.stringify(eventData));
    else if (typeof tw.external?.notify === "function") tw.external.notify(JSON.stringify({ eventType, eventData }));
    else if (framed) w.parent.postMessage(JSON.stringify({ eventType, eventData }), TELEGRAM_WEB);
  }
  const telegram = (tw.Telegram ??= {});
  const webView = (telegram.WebView ??= {});
  webView.receiveEvent ??= dispatch;
  w.addEventListener("message", (event) => {
    if (event.source !== w.parent || event.origin !== TELEGRAM_WEB || typeof event.data !== "string") return;
    try {
      const message = JSON.parse(event.data) as { eventType?: unknown; eventData?: unknown };
      if (typeof message.eventType === "string") dispatch(message.eventType, message.eventData);
    } catch {
      // Not Telegram's: other frames may talk to us too.
    }
  });
  let back: (() => void) | undefined;
  handlers.set("back_button_pressed", () => back?.());
  let main: (() => void) | undefined;
  handlers.set("main_button_pressed", () => main?.());
  return {
    ready() {
      post("web_app_ready");
      post("web_app_expand");
    },
    setBack(handler) {
      back = handler;
      post("web_app_setup_back_button", { is_visible: handler !== undefined });
    },
    setMain(next) {
      main = next?.onClick;
      if (!inTelegram) return false;
      post("web_app_setup_main_button", next === undefined ? { is_visible: false } : { is_visible: true, is_active: true, text: next.text });
      return next !== undefined;
    },
    openLink(url) {
      if (!inTelegram) return false;
      post("web_app_open_link", { url });
      return true;
    },
    onTheme(handler) {
      handlers.set("theme_changed", (data) => {
        const params = data["theme_params"];
        if (typeof params === "object" && params !== null) handler(params as Record<string, string>);
      });
    },
  };
}

export function telegramHost(): Host {
  // Telegram's own properties, typed apart from the DOM's (whose `external` is a deprecated stub).
  const tw = window as unknown as TelegramWindow;
  const webApp = tw.Telegram?.WebApp;
  return webApp && typeof webApp.ready === "function" ? sdkHost(webApp) : bridgeHost(window, tw);
}

/** Telegram's launch parameters, from the URL's hash (the SDK's copy when the hash is gone). */
export function launchParams(hash: string): { initData: string | undefined; theme: Record<string, string> } {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  const initData = params.get("tgWebAppData") ?? (window as unknown as { Telegram?: { WebApp?: { initData?: string } } }).Telegram?.WebApp?.initData;
  let theme: Record<string, string> = {};
  try {
    const parsed: unknown = JSON.parse(params.get("tgWebAppThemeParams") ?? "{}");
    if (typeof parsed === "object" && parsed !== null) theme = parsed as Record<string, string>;
  } catch {
    theme = {};
  }
  return { initData: initData === "" ? undefined : (initData ?? undefined), theme };
}

/** Theme colours as CSS variables (`bg_color` → `--tg-bg-color`), `#rrggbb` only; dark when the background is. */
export function applyTheme(params: Record<string, string>): void {
  const root = document.documentElement;
  for (const [key, value] of Object.entries(params)) {
    if (/^[a-z_]{1,40}$/.test(key) && typeof value === "string" && /^#[0-9a-fA-F]{6}$/.test(value))
      root.style.setProperty(`--tg-${key.replace(/_/g, "-")}`, value);
  }
  const bg = params["bg_color"];
  if (typeof bg === "string" && /^#[0-9a-fA-F]{6}$/.test(bg)) {
    const [r, g, b] = [1, 3, 5].map((i) => parseInt(bg.slice(i, i + 2), 16) / 255) as [number, number, number];
    const dark = 0.2126 * r + 0.7152 * g + 0.0722 * b < 0.5;
    root.dataset["theme"] = dark ? "dark" : "light";
    root.style.colorScheme = dark ? "dark" : "light";
  }
}
