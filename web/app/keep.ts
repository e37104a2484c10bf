/**
 * Keep charged: the chat's plans with Pause / Resume / Stop, a New plan form and an Edit form. The page sends
 * what was picked (a receiver, an amount, a tier, the limits' presets); the server reads it with `/keep`'s own
 * rules and presets and answers with the proposal in the chat's words, so a plan made here and the same plan
 * typed in the chat are one plan. Start and Save go through the chat's own use cases, which draw the plan's
 * card in the chat.
 */
import { beginScreen, button, el, getJson, post, primary, screen, showError, t, tabs, type Me } from "./ui.js";

interface PlanLimits {
  until: { atMs: number; text: string } | null;
  hours: { text: string; preset: "h" | null } | null;
  cap: { sun: string; trx: string; value: string | null } | null;
}

interface Plan {
  planId: string;
  state: "active" | "paused" | "stopped";
  text: string;
  limits: PlanLimits;
}

interface CapPreset {
  value: string;
  sun: string;
  label: string;
}

interface Window {
  code: "t" | "d" | "h";
  option: "until" | "hours";
  label: string;
}

interface KeepOptions {
  receivers: { address: string; label: string | null }[];
  amountMin: number;
  amountMax: number;
  presets: { amount: number; text: string }[];
  tiers: { durationSec: number; durationText: string }[];
  windows: Window[];
}

/** The limits as the server reads them: a preset's code or a cap's amount, null for none, "=" for what an edited plan has. */
interface Limits {
  until: string | null;
  hours: string | null;
  cap: string | null;
}

interface Preview {
  text?: string;
  capPresets?: CapPreset[];
  message?: string;
}

const shortAddress = (address: string): string => `${address.slice(0, 6)}…${address.slice(-4)}`;

export async function drawKeep(me: Me, note?: string): Promise<void> {
  beginScreen();
  let answer: { plans: Plan[]; canStart: boolean };
  try {
    answer = await getJson<{ plans: Plan[]; canStart: boolean }>("/app/api/keep");
  } catch (error) {
    showError(error, () => void drawKeep(me, note));
    return;
  }
  const { plans } = answer;
  const act = (planId: string, action: "pause" | "resume" | "stop") =>
    post("/app/api/keep/act", { planId, action })
      .then((result) => drawKeep(me, (result.body as { message?: string }).message))
      .catch((error: unknown) => showError(error, () => void drawKeep(me)));
  const list = el("ol", { class: "rows", id: "plans" });
  for (const plan of plans) {
    const item = el(
      "li",
      { class: "row", "data-plan": plan.planId, "data-state": plan.state },
      el("span", { class: `badge plan-${plan.state}` }, t(`mini-app-keep-${plan.state}`)),
      el("p", { class: "row-text" }, plan.text),
    );
    if (plan.state !== "stopped") {
      item.append(
        el(
          "div",
          { class: "choices" },
          plan.state === "active"
            ? button("", t("keep-pause-button"), () => void act(plan.planId, "pause"), { "data-action": "pause" })
            : button("", t("keep-resume-button"), () => void act(plan.planId, "resume"), { "data-action": "resume" }),
          button("", t("keep-stop-button"), () => void act(plan.planId, "stop"), { "data-action": "stop" }),
          button("", t("mini-app-keep-edit"), () => void drawKeepEdit(me, plan.planId), { "data-edit": plan.planId }),
        ),
      );
    }
    list.append(item);
  }
  const parts: Node[] = [
    tabs(me, "keep"),
    el("h1", {}, t("mini-app-tab-keep")),
    el("p", { class: "status", id: "keep-result", role: "status" }, note ?? ""),
    plans.length === 0 ? el("p", { class: "status", id: "keep-empty" }, t("mini-app-keep-empty")) : list,
  ];
  if (answer.canStart) parts.push(button("keep-new", t("keep-new-button"), () => void drawKeepNew(me), { class: "primary" }));
  screen.replaceChildren(...parts);
}

/** A group of toggles where at most one is on: a second tap on the chosen one takes it back (none). */
function toggles(id: string, choices: { value: string; label: string }[], chosen: string | null, pick: (value: string | null) => void): HTMLElement {
  const box = el("div", { class: "choices", id });
  for (const choice of choices) {
    box.append(
      button("", choice.label, () => pick(chosen === choice.value ? null : choice.value), {
        "data-value": choice.value,
        "aria-pressed": String(chosen === choice.value),
      }),
    );
  }
  return box;
}

/** The proposal box: the server's words for what the form holds now, or its refusal. */
async function previewInto(box: HTMLElement, path: string, body: unknown): Promise<Preview | undefined> {
  const answer = await post(path, body);
  const preview = answer.body as Preview;
  if (answer.status !== 200 || preview.text === undefined) {
    box.replaceChildren(el("p", { class: "status error", id: "keep-refusal" }, preview.message ?? t("mini-app-failed")));
    box.dataset["ok"] = "false";
    return undefined;
  }
  box.replaceChildren(el("p", { class: "row-text", id: "keep-proposal-text" }, preview.text));
  box.dataset["ok"] = "true";
  return preview;
}

interface NewPlan {
  receiver: string;
  amount: number;
  durationSec: number;
  limits: Limits;
}

/**
 * New plan: a receiver (the address book's or pasted), an amount (the chat's presets or typed), a tier, the
 * limits as the chat's presets, the proposal as the chat words it, and ✅ Start.
 */
export async function drawKeepNew(me: Me, chosen?: NewPlan): Promise<void> {
  const back = () => void drawKeep(me);
  beginScreen(back);
  let options: KeepOptions;
  try {
    options = await getJson<KeepOptions>("/app/api/keep/options");
  } catch (error) {
    showError(error, () => void drawKeepNew(me, chosen));
    return;
  }
  const state: NewPlan = chosen ?? {
    receiver: options.receivers[0]?.address ?? "",
    amount: options.presets[0]?.amount ?? options.amountMin,
    durationSec: options.tiers[0]?.durationSec ?? 0,
    limits: { until: null, hours: null, cap: null },
  };
  const redraw = () => void drawKeepNew(me, state);
  const receiver = el("input", {
    id: "keep-receiver",
    type: "text",
    autocomplete: "off",
    spellcheck: "false",
    placeholder: t("mini-app-order-receiver-paste"),
  });
  receiver.value = state.receiver;
  receiver.addEventListener("change", () => {
    state.receiver = receiver.value.trim();
    redraw();
  });
  const book = toggles(
    "keep-book",
    options.receivers.slice(0, 8).map((e) => ({ value: e.address, label: e.label ?? shortAddress(e.address) })),
    state.receiver,
    (value) => {
      state.receiver = value ?? "";
      redraw();
    },
  );
  const amount = el("input", { id: "keep-amount", type: "number", inputmode: "numeric", min: String(options.amountMin), max: String(options.amountMax) });
  amount.value = String(state.amount);
  amount.addEventListener("change", () => {
    state.amount = Math.trunc(Number(amount.value)) || state.amount;
    redraw();
  });
  const presets = toggles(
    "keep-presets",
    options.presets.map((p) => ({ value: String(p.amount), label: p.text })),
    String(state.amount),
    (value) => {
      if (value !== null) state.amount = Number(value);
      redraw();
    },
  );
  const tiers = toggles(
    "keep-tiers",
    options.tiers.map((tier) => ({ value: String(tier.durationSec), label: tier.durationText })),
    String(state.durationSec),
    (value) => {
      if (value !== null) state.durationSec = Number(value);
      redraw();
    },
  );
  const windowChoices = (option: "until" | "hours") => options.windows.filter((w) => w.option === option).map((w) => ({ value: w.code, label: w.label }));
  const until = toggles("keep-until", windowChoices("until"), state.limits.until, (value) => {
    state.limits.until = value;
    redraw();
  });
  const hours = toggles("keep-hours", windowChoices("hours"), state.limits.hours, (value) => {
    state.limits.hours = value;
    redraw();
  });
  const caps = el("div", { class: "choices", id: "keep-caps" });
  const proposal = el("section", { class: "card", id: "keep-proposal" });
  const result = el("p", { class: "status", id: "keep-form-result", role: "status" });
  const body = () => ({ receiver: state.receiver, amount: state.amount, durationSec: state.durationSec, ...state.limits });
  const start = button(
    "keep-start",
    t("keep-confirm-button"),
    () => {
      start.disabled = true;
      post("/app/api/keep/start", body())
        .then((answer) => {
          const started = answer.body as { planId?: string; message?: string };
          if (answer.status === 200 && started.planId !== undefined) return drawKeep(me, started.message);
          result.textContent = started.message ?? t("mini-app-failed");
          start.disabled = false;
          return undefined;
        })
        .catch((error: unknown) => showError(error, back));
    },
    { class: "primary" },
  );
  screen.replaceChildren(
    button("back", t("mini-app-back"), back, { class: "back" }),
    el("h1", {}, t("keep-new-button")),
    el("label", { for: "keep-receiver" }, t("mini-app-order-receiver")),
    book,
    receiver,
    el("label", { for: "keep-amount" }, t("mini-app-order-amount")),
    presets,
    amount,
    el("p", { class: "label" }, t("mini-app-order-duration")),
    tiers,
    el("p", { class: "label" }, t("mini-app-keep-limits")),
    el("p", { class: "hint" }, t("mini-app-keep-new")),
    until,
    hours,
    caps,
    proposal,
    result,
    start,
  );
  primary(start, t("keep-confirm-button"), () => start.click());
  const preview = await previewInto(proposal, "/app/api/keep/preview", body()).catch((error: unknown) => {
    showError(error, back);
    return undefined;
  });
  start.disabled = preview === undefined;
  const offered = preview?.capPresets ?? [];
  // A cap picked from an earlier day's cost stays offered, so it can be taken back.
  const choices = offered.map((c) => ({ value: c.value, label: c.label }));
  if (state.limits.cap !== null && !choices.some((c) => c.value === state.limits.cap))
    choices.push({ value: state.limits.cap, label: `${state.limits.cap} TRX` });
  caps.replaceChildren(
    ...toggles("keep-caps", choices, state.limits.cap, (value) => {
      state.limits.cap = value;
      redraw();
    }).childNodes,
  );
}

/**
 * Edit: the plan's limits, starting from what it has ("as now" where no preset says it), changed with the
 * chat's presets; the plan as it would then run, and Save, which redraws the plan's card in the chat.
 */
export async function drawKeepEdit(me: Me, planId: string, chosen?: Limits): Promise<void> {
  const back = () => void drawKeep(me);
  beginScreen(back);
  let plan: Plan | undefined;
  let windows: Window[];
  try {
    plan = (await getJson<{ plans: Plan[] }>("/app/api/keep")).plans.find((p) => p.planId === planId);
    windows = (await getJson<KeepOptions>("/app/api/keep/options")).windows;
  } catch (error) {
    showError(error, () => void drawKeepEdit(me, planId, chosen));
    return;
  }
  if (plan === undefined || plan.state === "stopped") {
    await drawKeep(me, t("mini-app-keep-stopped"));
    return;
  }
  const { limits } = plan;
  // A cap of whole TRX is sent as its amount (read again as typed, the same cap); any other as "=" (kept).
  const currentCap = limits.cap === null ? null : (limits.cap.value ?? "=");
  const state: Limits = chosen ?? {
    until: limits.until === null ? null : "=",
    hours: limits.hours === null ? null : (limits.hours.preset ?? "="),
    cap: currentCap,
  };
  const redraw = () => void drawKeepEdit(me, planId, state);
  const group = (option: "until" | "hours", current: string | undefined) => {
    const choices: { value: string; label: string }[] = windows.filter((w) => w.option === option).map((w) => ({ value: w.code, label: w.label }));
    if (current !== undefined) choices.unshift({ value: "=", label: current });
    return toggles(`keep-edit-${option}`, choices, state[option], (value) => {
      state[option] = value;
      redraw();
    });
  };
  const until = group("until", limits.until === null ? undefined : t("mini-app-keep-until-current", { at: limits.until.text }));
  const hours = group(
    "hours",
    limits.hours === null || limits.hours.preset !== null ? undefined : t("mini-app-keep-hours-current", { hours: limits.hours.text }),
  );
  const caps = el("div", { class: "choices", id: "keep-edit-cap" });
  const proposal = el("section", { class: "card", id: "keep-proposal" });
  const result = el("p", { class: "status", id: "keep-form-result", role: "status" });
  const save = button(
    "keep-save",
    t("mini-app-save"),
    () => {
      save.disabled = true;
      post("/app/api/keep/edit", { planId, ...state })
        .then((answer) => {
          const saved = answer.body as { message?: string };
          if (answer.status === 200) return drawKeep(me, saved.message);
          result.textContent = saved.message ?? t("mini-app-failed");
          save.disabled = false;
          return undefined;
        })
        .catch((error: unknown) => showError(error, back));
    },
    { class: "primary" },
  );
  screen.replaceChildren(
    button("back", t("mini-app-back"), back, { class: "back" }),
    el("h1", {}, t("mini-app-keep-edit-title")),
    el("p", { class: "hint" }, t("mini-app-keep-new")),
    el("p", { class: "label" }, t("mini-app-keep-until")),
    until,
    el("p", { class: "label" }, t("mini-app-keep-hours")),
    hours,
    el("p", { class: "label" }, t("mini-app-keep-cap")),
    caps,
    proposal,
    result,
    save,
  );
  primary(save, t("mini-app-save"), () => save.click());
  const preview = await previewInto(proposal, "/app/api/keep/edit", { planId, ...state, preview: true }).catch((error: unknown) => {
    showError(error, back);
    return undefined;
  });
  save.disabled = preview === undefined;
  const choices = (preview?.capPresets ?? []).map((c) => ({ value: c.value, label: c.label }));
  if (limits.cap !== null && currentCap !== null && !choices.some((c) => c.value === currentCap))
    choices.unshift({ value: currentCap, label: t("mini-app-keep-cap-current", { cap: limits.cap.trx }) });
  if (state.cap !== null && !choices.some((c) => c.value === state.cap)) choices.push({ value: state.cap, label: `${state.cap} TRX` });
  caps.replaceChildren(
    ...toggles("keep-edit-cap", choices, state.cap, (value) => {
      state.cap = value;
      redraw();
    }).childNodes,
  );
}
