import type { Context, Middleware } from "grammy";
import type { Links } from "../helpers/links.js";

/** Gives every update (and every conversation step) the configured links: `ctx.links`. */
export function withLinks<C extends Context & { links: Links }>(links: Links): Middleware<C> {
  return (ctx, next) => {
    ctx.links = links;
    return next();
  };
}
