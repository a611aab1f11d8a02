// badges.js: a month's badge as the page shows it (in the Challenges dialog, in Records and under the
// daily calendar): a medal and what earned it, from the server's figures (docs/challenges.md).
import { dateLocale, lang, t } from "./i18n.js";

// A month as the player reads it: 「2026年12月」, "December 2026".
export function monthName(month) {
  const [year, number] = month.split("-").map(Number);
  return new Intl.DateTimeFormat(dateLocale(), { year: "numeric", month: "long", timeZone: "UTC" })
    .format(new Date(Date.UTC(year, number - 1, 1)));
}

// The medal and the words of one month's entry ({month, days, challenges, badge}).
export function badgeLine(entry) {
  const medal = document.createElement("span");
  medal.className = `medal ${entry.badge || "none"}`;
  medal.setAttribute("aria-hidden", "true");
  medal.textContent = entry.badge === "crown" ? "♛" : entry.badge ? "★" : "";
  const text = document.createElement("span");
  text.textContent = t("badge_month", { month: monthName(entry.month), days: entry.days,
    challenges: entry.challenges, badge: entry.badge ? t(`badge_${entry.badge}`) : t("badge_none") });
  return [medal, text];
}
