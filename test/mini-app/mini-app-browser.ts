/** What the Mini App's Chromium tests share: the app world, one browser per file, and a linked chat with fulfilled orders. */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { launchChromium } from "../../testkit/browser.js";
import { signInitData } from "../../testkit/mini-app-launch.js";
import { useSqliteAppWorld, waitFor, type AppWorld } from "../app-harness.js";

export const RECEIVER = "TQCq78eKWLd98P5Eu155knhkacGPAhS9pu";
export const nowS = (): number => Math.floor(Date.now() / 1000);

/** Call inside a describe: the app world and a Chromium for the file, closed after it. */
export function useMiniAppBrowser() {
  const world = useSqliteAppWorld();
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** A chat linked in `language` with `orders` fulfilled orders (65k, 66k, … energy to RECEIVER), and the app's base URL. */
  async function linkedChat(chat: number, language: string, orders: number) {
    const { w, target } = world;
    const app = await w.startApp(target);
    w.tg.addChat(chat, { languageCode: language });
    await w.say(chat, `/link ${w.demo.apiKey} ${w.demo.webhookSecret}`, (m) => m.text.length > 0);
    const ids: string[] = [];
    for (let i = 0; i < orders; i += 1) {
      const quote = await w.say(chat, `/order ${RECEIVER} ${65 + i}k 1h`, (m) => /[0-9]+ TRX/.test(m.text) && m.buttons.length > 0);
      w.front.enqueue(w.tg.press(chat, /Confirm|Подтвердить|确认/));
      ids.push(await waitFor(() => /([0-9a-f]{24})/.exec(w.textOf(chat, quote.messageId))?.[1], "the order card"));
    }
    await waitFor(() => ids.every((id) => w.botTexts(chat, new RegExp(`${id}[\\s\\S]*(fulfilled|выполнен|已完成)`)).length > 0), "every order fulfilled");
    return { w, base: `http://127.0.0.1:${app.httpPort}`, ids };
  }

  return {
    world,
    get browser(): Browser {
      if (browser === undefined) throw new Error("the browser starts in beforeAll");
      return browser;
    },
    linkedChat,
  };
}

/** Launch data for user `id` as Telegram signs it, with the bot's token unless another is given. */
export const initFor = (w: AppWorld, id: number, language: string, authDateS = nowS(), token = w.tg.token): string =>
  signInitData(token, { user: { id, first_name: "Ann", language_code: language }, authDateS, queryId: "AAHdF6IQAAAAAN0XohDhrOrc" });
