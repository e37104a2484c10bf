/**
 * Send USDT: the recipient (the address book, or pasted) and the amount go to the server, which quotes
 * them as /send does; Confirm gives /send's one-time signing link, opened outside the app (Telegram's
 * openLink) where the host can, else as a normal link. The wallet signs on the signing page, not here.
 */
import { beginScreen, button, el, getJson, host, post, primary, screen, showError, t, tabs, type Me } from "./ui.js";

interface Receiver {
  address: string;
  label: string | null;
}

interface Chosen {
  recipient: string;
  amount: string;
}

export async function drawSend(me: Me, chosen: Chosen = { recipient: "", amount: "" }): Promise<void> {
  beginScreen();
  let options: { receivers: Receiver[] };
  try {
    options = await getJson("/app/api/send/options");
  } catch (error) {
    showError(error, () => void drawSend(me, chosen));
    return;
  }
  const state = { ...chosen };
  const recipient = el("input", {
    id: "send-recipient",
    type: "text",
    autocomplete: "off",
    spellcheck: "false",
    placeholder: t("mini-app-order-receiver-paste"),
  });
  recipient.value = state.recipient;
  recipient.addEventListener("input", () => (state.recipient = recipient.value.trim()));
  const book = el("div", { class: "choices", id: "send-book" });
  for (const entry of options.receivers.slice(0, 8)) {
    book.append(
      button(
        "",
        entry.label ?? `${entry.address.slice(0, 6)}…${entry.address.slice(-4)}`,
        () => {
          state.recipient = entry.address;
          recipient.value = entry.address;
        },
        { "data-address": entry.address },
      ),
    );
  }
  const amount = el("input", { id: "send-amount", type: "text", inputmode: "decimal", autocomplete: "off", placeholder: t("mini-app-send-amount-hint") });
  amount.value = state.amount;
  amount.addEventListener("input", () => (state.amount = amount.value.trim()));
  const box = el("section", { class: "quote", id: "send-quote", hidden: "" });
  const getQuote = button("send-get-quote", t("mini-app-order-get-quote"), () => void quote(state, box), { class: "primary" });
  primary(getQuote, t("mini-app-order-get-quote"), () => getQuote.click());
  screen.replaceChildren(
    tabs(me, "send"),
    el("h1", {}, t("mini-app-tab-send")),
    el("label", { for: "send-recipient" }, t("mini-app-order-receiver")),
    book,
    recipient,
    el("label", { for: "send-amount" }, t("mini-app-send-amount")),
    amount,
    getQuote,
    box,
  );
}

async function quote(state: Chosen, box: HTMLElement): Promise<void> {
  box.hidden = false;
  let answer: { status: number; body: unknown };
  try {
    answer = await post("/app/api/send/quote", { recipient: state.recipient, amount: state.amount });
  } catch (error) {
    showError(error, () => void quote(state, box));
    return;
  }
  const q = answer.body as { intentId?: string; text?: string; message?: string };
  if (answer.status !== 200 || q.intentId === undefined) {
    box.replaceChildren(el("p", { class: "status error", id: "send-error" }, q.message ?? t("mini-app-failed")));
    return;
  }
  const intentId = q.intentId;
  const result = el("p", { class: "status", id: "send-result", role: "status" });
  const link = el("section", { id: "send-link", hidden: "" });
  let again = false;
  const confirm = button(
    "send-confirm",
    t("send-confirm-button"),
    () => {
      confirm.disabled = true;
      post("/app/api/send/confirm", { intentId, confirmedAgain: again })
        .then((answered) => {
          const body = answered.body as { status?: string; message?: string; button?: string; url?: string; text?: string; qr?: string };
          if (body.status === "link" && body.url !== undefined) {
            host.setMain(undefined);
            result.textContent = "";
            showLink(link, body.url, body.text ?? "", body.qr);
            return;
          }
          result.textContent = body.message ?? t("mini-app-failed");
          if (body.status === "needs_second_tap") {
            again = true;
            confirm.textContent = body.button ?? t("mini-app-order-confirm-again");
            primary(confirm, confirm.textContent, () => confirm.click());
          }
          confirm.disabled = body.status !== "needs_second_tap";
        })
        .catch((error: unknown) => showError(error, () => undefined));
    },
    { class: "primary" },
  );
  box.replaceChildren(el("p", { class: "row-text", id: "send-quote-text" }, q.text ?? ""), confirm, result, link);
  // Telegram's main button taps the page's Confirm: one path, so a double tap is one link.
  primary(confirm, t("send-confirm-button"), () => confirm.click());
}

/** The signing link: Telegram opens it outside the app (the wallet's browser or the system's); a plain browser follows it. */
function showLink(box: HTMLElement, url: string, text: string, qr: string | undefined): void {
  const a = el("a", { href: url, id: "sign-link", class: "button primary", target: "_blank", rel: "noopener noreferrer" }, t("send-sign-button"));
  a.addEventListener("click", (event) => {
    if (host.openLink(url)) event.preventDefault();
  });
  // The link as a QR code, for a wallet on another device (the text says so).
  const code = qr?.startsWith("data:image/png;base64,") === true ? [el("img", { id: "sign-qr", class: "qr", src: qr, alt: url })] : [];
  box.replaceChildren(el("p", { class: "row-text", id: "send-link-text" }, text), ...code, a);
  box.hidden = false;
}
