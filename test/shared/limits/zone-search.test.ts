import { describe, expect, it } from "vitest";
import { offsetsNow, searchTimeZones, zonesAtOffset } from "../../../src/shared/limits/zone-search.js";

/** Jan 15, 2026, 12:00 UTC: winter in the north, summer in the south. */
const WINTER = Date.UTC(2026, 0, 15, 12);
const SUMMER = Date.UTC(2026, 6, 15, 12);

describe("finding a time zone by city", () => {
  it.each([
    ["Europe/Moscow", ["Moscow", "Москва", "莫斯科"]],
    ["Europe/Moscow", ["Saint Petersburg", "Санкт-Петербург", "圣彼得堡"]],
    ["Asia/Novosibirsk", ["Novosibirsk", "Новосибирск", "新西伯利亚"]],
    ["Asia/Yekaterinburg", ["Yekaterinburg", "Екатеринбург", "叶卡捷琳堡"]],
    ["Asia/Vladivostok", ["Vladivostok", "Владивосток", "符拉迪沃斯托克"]],
    ["Europe/Kyiv", ["Kyiv", "Киев", "基辅"]],
    ["Europe/Minsk", ["Minsk", "Минск", "明斯克"]],
    ["Asia/Almaty", ["Almaty", "Алматы", "阿拉木图"]],
    ["Asia/Tashkent", ["Tashkent", "Ташкент", "塔什干"]],
    ["Asia/Shanghai", ["Beijing", "Пекин", "北京", "Shanghai", "Шанхай", "上海"]],
    ["Asia/Hong_Kong", ["Hong Kong", "Гонконг", "香港"]],
    ["Asia/Taipei", ["Taipei", "Тайбэй", "台北"]],
    ["Asia/Singapore", ["Singapore", "Сингапур", "新加坡"]],
    ["Asia/Tokyo", ["Tokyo", "Токио", "东京"]],
    ["Asia/Dubai", ["Dubai", "Дубай", "迪拜"]],
    ["Europe/Istanbul", ["Istanbul", "Стамбул", "伊斯坦布尔"]],
    ["Europe/London", ["London", "Лондон", "伦敦"]],
    ["Europe/Berlin", ["Berlin", "Берлин", "柏林"]],
    ["America/New_York", ["New York", "Нью-Йорк", "纽约", "new_york", "NEW  YORK"]],
    ["America/Los_Angeles", ["Los Angeles", "Лос-Анджелес", "洛杉矶"]],
  ] as const)("%s by its names in English, Russian and Chinese", (zone, names) => {
    for (const name of names) expect(searchTimeZones(name), name).toEqual({ kind: "one", zone });
  });

  it("reads a city Intl lists under its former name by its current one, and stores the current name", () => {
    expect(searchTimeZones("kolkata")).toEqual({ kind: "one", zone: "Asia/Kolkata" });
    expect(searchTimeZones("Asia/Calcutta")).toEqual({ kind: "one", zone: "Asia/Kolkata" });
    expect(searchTimeZones("kathmandu")).toEqual({ kind: "one", zone: "Asia/Kathmandu" });
  });

  it("offers every zone the start of a name matches, major cities first", () => {
    expect(searchTimeZones("novo")).toEqual({ kind: "some", zones: ["Asia/Novosibirsk", "Asia/Novokuznetsk", "Africa/Porto-Novo"] });
    expect(searchTimeZones("york")).toEqual({ kind: "some", zones: ["America/New_York"] });
    const san = searchTimeZones("san");
    expect(san.kind === "some" && san.zones).toEqual(expect.arrayContaining(["America/Santiago", "America/Argentina/San_Juan"]));
  });

  it("refuses a name no zone has, one letter, and an offset no zone keeps all year", () => {
    expect(searchTimeZones("atlantis")).toEqual({ kind: "none", reason: "unknown" });
    expect(searchTimeZones("Mars/Olympus")).toEqual({ kind: "none", reason: "unknown" });
    expect(searchTimeZones("b")).toEqual({ kind: "none", reason: "unknown" });
    expect(searchTimeZones("UTC+10:30")).toEqual({ kind: "none", reason: "uneven_offset" });
  });

  it("still reads an offset or an IANA name as one zone", () => {
    expect(searchTimeZones("UTC+3")).toEqual({ kind: "one", zone: "Etc/GMT-3" });
    expect(searchTimeZones("UTC+5:30")).toEqual({ kind: "one", zone: "Asia/Kolkata" });
    expect(searchTimeZones("america/sao_paulo")).toEqual({ kind: "one", zone: "America/Sao_Paulo" });
  });
});

describe("finding a time zone by its offset now", () => {
  it("lists every whole hour from UTC−12 to UTC+14 and the half and quarter hours in use, west to east", () => {
    const winter = offsetsNow(WINTER);
    for (let hours = -12; hours <= 14; hours++) expect(winter).toContain(hours * 60);
    expect(winter).toEqual(expect.arrayContaining([-570, -210, 210, 270, 330, 345, 390, 525, 570, 630, 825]));
    expect(winter).toEqual([...winter].sort((a, b) => a - b));
    // St. John's (Newfoundland) is UTC−3:30 in winter and UTC−2:30 in summer.
    expect(winter).not.toContain(-150);
    expect(offsetsNow(SUMMER)).toContain(-150);
  });

  it("lists the places of an offset as their clocks show it then, major cities first, the fixed offset last", () => {
    expect(zonesAtOffset(330, WINTER)).toEqual(["Asia/Kolkata", "Asia/Colombo"]);
    const berlinWinter = zonesAtOffset(60, WINTER);
    expect(berlinWinter[0]).toBe("Europe/Berlin");
    expect(berlinWinter.at(-1)).toBe("Etc/GMT-1");
    expect(zonesAtOffset(120, SUMMER)).toContain("Europe/Berlin");
    expect(zonesAtOffset(-720, WINTER)).toEqual(["Etc/GMT+12"]);
    expect(zonesAtOffset(0, WINTER).at(-1)).toBe("UTC");
  });
});
