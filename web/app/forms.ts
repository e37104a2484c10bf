/**
 * Limits and Addresses: the chat's settings as forms (Keep charged is keep.ts). The page sends what the user chose or
 * typed; the server reads it with the chat's own parsers and rules and answers in the chat's words, so a
 * preset tapped here and the same amount typed in /limits are one setting.
 */
import { beginScreen, button, el, getJson, post, primary, screen, showError, t, tabs, type Me } from "./ui.js";

interface Amount {
  sun: string;
  trx: string;
}

interface LimitsState {
  frozen: boolean;
  caps: Record<"d" | "m" | "t", { value: Amount | null; presets: { value: string; sun: string; trx: string }[] }>;
  spentDay: Amount;
  spentMonth: Amount;
  zone: string;
  card: string;
  message?: string;
}

const FIELD_KEYS = { d: "limits-daily-button", m: "limits-monthly-button", t: "limits-threshold-button" } as const;
type Field = keyof typeof FIELD_KEYS;

/** A change's answer: the new state to draw, or the chat's refusal to show where it was asked. */
async function change(path: string, body: unknown): Promise<{ ok: boolean; body: LimitsState & { message?: string } }> {
  const answer = await post(path, body);
  return { ok: answer.status === 200, body: answer.body as LimitsState & { message?: string } };
}

export async function drawLimits(me: Me, note?: string): Promise<void> {
  beginScreen();
  let state: LimitsState;
  try {
    state = await getJson<LimitsState>("/app/api/limits");
  } catch (error) {
    showError(error, () => void drawLimits(me, note));
    return;
  }
  const result = el("p", { class: "status", id: "limits-result", role: "status" }, note ?? "");
  const apply = (path: string, body: unknown) =>
    change(path, body)
      .then((answer) => (answer.ok ? drawLimits(me, answer.body.message) : void (result.textContent = answer.body.message ?? t("mini-app-failed"))))
      .catch((error: unknown) => showError(error, () => void drawLimits(me)));
  const sections = (Object.keys(FIELD_KEYS) as Field[]).map((field) => {
    const cap = state.caps[field];
    const choices = el("div", { class: "choices", id: `limit-${field}` });
    for (const preset of cap.presets) {
      choices.append(
        button("", `${preset.trx} TRX`, () => void apply("/app/api/limits", { field, value: preset.value }), {
          "data-sun": preset.sun,
          "aria-pressed": String(cap.value?.sun === preset.sun),
        }),
      );
    }
    choices.append(
      button("", t("limits-custom-button"), () => drawLimitCustom(me, field, cap.value), { "data-custom": field }),
      button("", t("limits-clear-button"), () => void apply("/app/api/limits", { field, value: null }), {
        "data-clear": field,
        "aria-pressed": String(cap.value === null),
      }),
    );
    return el(
      "section",
      { class: "card" },
      el("p", { class: "label" }, t(FIELD_KEYS[field])),
      el("p", { class: "value", id: `limit-${field}-value`, "data-sun": cap.value?.sun ?? "" }, cap.value ? `${cap.value.trx} TRX` : t("limits-clear-button")),
      choices,
    );
  });
  const freeze = button(
    "freeze",
    t(state.frozen ? "limits-unfreeze-button" : "limits-freeze-button"),
    () => void apply("/app/api/limits/freeze", { frozen: !state.frozen }),
    {
      class: state.frozen ? "primary" : "",
      "data-frozen": String(state.frozen),
    },
  );
  screen.replaceChildren(
    tabs(me, "limits"),
    el("h1", {}, t("mini-app-tab-limits")),
    result,
    el("section", { class: "card row-text", id: "limits-card" }, state.card),
    ...sections,
    el("p", { class: "hint", id: "limits-zone" }, t("mini-app-limits-zone", { zone: state.zone })),
    button("zone-change", t("mini-app-zone-change"), () => void drawZonePicker(me)),
    freeze,
  );
}

interface ZoneChoice {
  zone: string;
  label: string;
}

/**
 * The time zone, as /settings picks it: the common zones, a city typed (the chat's own search on the
 * server), or a UTC offset and then a place that keeps it. A pick is saved by /settings' own setter.
 */
async function drawZonePicker(me: Me, offset?: number): Promise<void> {
  const back = () => void (offset === undefined ? drawLimits(me) : drawZonePicker(me));
  beginScreen(back);
  let answer: { zones: ZoneChoice[]; offsets?: { minutes: number; text: string }[] };
  try {
    answer = await getJson(offset === undefined ? "/app/api/limits/zones" : `/app/api/limits/zones?offset=${offset}`);
  } catch (error) {
    showError(error, () => void drawZonePicker(me, offset));
    return;
  }
  const result = el("p", { class: "status", id: "zone-result", role: "status" });
  const pick = (zone: string) =>
    void post("/app/api/limits/zone", { zone })
      .then((saved) => {
        const body = saved.body as { message?: string };
        if (saved.status === 200) return drawLimits(me, body.message);
        result.textContent = body.message ?? t("mini-app-failed");
        return undefined;
      })
      .catch((error: unknown) => showError(error, back));
  const choices = (zones: ZoneChoice[], id: string) => {
    const box = el("div", { class: "choices", id });
    for (const z of zones) box.append(button("", z.label, () => pick(z.zone), { "data-zone": z.zone }));
    return box;
  };
  const parts: Node[] = [button("back", t("mini-app-back"), back, { class: "back" }), el("h1", {}, t("mini-app-zone-title"))];
  if (offset !== undefined) parts.push(choices(answer.zones, "zones-at-offset"));
  else {
    const input = el("input", { id: "zone-search", type: "text", autocomplete: "off", spellcheck: "false", placeholder: t("mini-app-zone-search-hint") });
    const found = el("div", { class: "choices", id: "zone-found" });
    const search = button("zone-search-go", t("mini-app-zone-search"), () => {
      getJson<{ zones: ZoneChoice[]; message?: string }>(`/app/api/limits/zones?q=${encodeURIComponent(input.value)}`)
        .then((matches) => {
          result.textContent = matches.message ?? "";
          found.replaceChildren(...choices(matches.zones, "zone-found").childNodes);
        })
        .catch((error: unknown) => showError(error, back));
    });
    input.addEventListener("keydown", (event) => {
      if (event.key === "Enter") search.click();
    });
    const offsets = el("div", { class: "choices", id: "zone-offsets" });
    for (const o of answer.offsets ?? []) offsets.append(button("", o.text, () => void drawZonePicker(me, o.minutes), { "data-offset": String(o.minutes) }));
    parts.push(
      choices(answer.zones, "zone-common"),
      el("label", { for: "zone-search" }, t("time-zone-city-button")),
      input,
      search,
      found,
      el("p", { class: "label" }, t("time-zone-offsets-button")),
      offsets,
    );
  }
  parts.push(result);
  screen.replaceChildren(...parts);
}

/** ✏️ Custom: one amount typed, read by /limits' own parser on the server; Save is Telegram's main button where there is one. */
function drawLimitCustom(me: Me, field: Field, current: Amount | null): void {
  const back = () => void drawLimits(me);
  beginScreen(back);
  const input = el("input", { id: "limit-input", type: "text", inputmode: "decimal", autocomplete: "off", placeholder: t("mini-app-limits-custom-hint") });
  if (current) input.value = current.trx.replace(/[\s\u00a0\u202f]/g, "");
  const result = el("p", { class: "status error", id: "limit-error", role: "status" });
  const save = button(
    "limit-save",
    t("mini-app-save"),
    () => {
      save.disabled = true;
      change("/app/api/limits", { field, value: input.value })
        .then((answer) => {
          if (answer.ok) return drawLimits(me, answer.body.message);
          result.textContent = answer.body.message ?? t("mini-app-failed");
          save.disabled = false;
          return undefined;
        })
        .catch((error: unknown) => showError(error, back));
    },
    { class: "primary" },
  );
  screen.replaceChildren(
    button("back", t("mini-app-back"), back, { class: "back" }),
    el("h1", {}, t(FIELD_KEYS[field])),
    el("label", { for: "limit-input" }, t("mini-app-limits-custom-label")),
    input,
    result,
    save,
  );
  primary(save, t("mini-app-save"), () => save.click());
  input.focus();
}

interface BookEntry {
  address: string;
  label: string;
}

export async function drawAddresses(me: Me, note?: string): Promise<void> {
  beginScreen();
  let book: { entries: BookEntry[]; labelMax: number };
  try {
    book = await getJson("/app/api/addresses");
  } catch (error) {
    showError(error, () => void drawAddresses(me, note));
    return;
  }
  const list = el("ol", { class: "rows", id: "addresses" });
  for (const entry of book.entries) {
    const remove = button(
      "",
      t("addresses-delete-button"),
      () => {
        // The chat asks before a delete too: the first tap arms the button, the second removes.
        if (remove.dataset["armed"] !== "1") {
          remove.dataset["armed"] = "1";
          remove.textContent = t("addresses-delete-confirm-button");
          return;
        }
        post("/app/api/addresses/delete", { address: entry.address })
          .then((answer) =>
            drawAddresses(me, answer.status === 200 ? t("mini-app-addresses-removed", { label: entry.label }) : (answer.body as { message?: string }).message),
          )
          .catch((error: unknown) => showError(error, () => void drawAddresses(me)));
      },
      { "data-remove": entry.address },
    );
    list.append(
      el(
        "li",
        { class: "row", "data-address": entry.address },
        el("p", { class: "row-title" }, entry.label),
        el("p", { class: "mono hint" }, entry.address),
        el(
          "div",
          { class: "choices" },
          button("", t("addresses-rename-button"), () => drawAddressForm(me, book.labelMax, entry), { "data-rename": entry.address }),
          remove,
        ),
      ),
    );
  }
  screen.replaceChildren(
    tabs(me, "addresses"),
    el("h1", {}, t("mini-app-tab-addresses")),
    el("p", { class: "status", id: "addresses-result", role: "status" }, note ?? ""),
    book.entries.length === 0 ? el("p", { class: "status", id: "addresses-empty" }, t("mini-app-addresses-empty")) : list,
    button("address-add", t("addresses-add-button"), () => drawAddressForm(me, book.labelMax, undefined), { class: "primary" }),
  );
}

/** Add (address and label) or rename (the label of a saved address); the book's checks are the server's. */
function drawAddressForm(me: Me, labelMax: number, renaming: BookEntry | undefined): void {
  const back = () => void drawAddresses(me);
  beginScreen(back);
  const address = el("input", { id: "address-input", type: "text", autocomplete: "off", spellcheck: "false", placeholder: "T…" });
  const label = el("input", { id: "label-input", type: "text", autocomplete: "off", maxlength: String(labelMax) });
  if (renaming) {
    address.value = renaming.address;
    address.readOnly = true;
    label.value = renaming.label;
  }
  const result = el("p", { class: "status error", id: "address-error", role: "status" });
  const save = button(
    "address-save",
    t("mini-app-save"),
    () => {
      save.disabled = true;
      post("/app/api/addresses", { address: address.value, label: label.value, rename: renaming !== undefined })
        .then((answer) => {
          const body = answer.body as { entry?: BookEntry; message?: string };
          if (answer.status === 200 && body.entry) return drawAddresses(me, t("mini-app-addresses-saved", { label: body.entry.label }));
          result.textContent = body.message ?? t("mini-app-failed");
          save.disabled = false;
          return undefined;
        })
        .catch((error: unknown) => showError(error, back));
    },
    { class: "primary" },
  );
  screen.replaceChildren(
    button("back", t("mini-app-back"), back, { class: "back" }),
    el("h1", {}, t(renaming ? "addresses-rename-button" : "addresses-add-button")),
    el("label", { for: "address-input" }, t("mini-app-addresses-address")),
    address,
    el("label", { for: "label-input" }, t("mini-app-addresses-label", { max: labelMax })),
    label,
    result,
    save,
  );
  primary(save, t("mini-app-save"), () => save.click());
  (renaming ? label : address).focus();
}
