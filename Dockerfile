# syntax=docker/dockerfile:1
# Ship what is tested: the image runs the Node version the tests and CI run
# (20.20; test/dockerfile.test.ts fails when the running Node's major.minor
# differs). Three stages: one full `npm ci` (native better-sqlite3 compiled
# once), the TypeScript build followed by `npm prune --omit=dev` on those same
# node_modules, and a slim runtime that runs as a non-root user.
ARG NODE_IMAGE=node:20.20-bookworm-slim

FROM ${NODE_IMAGE} AS deps
WORKDIR /app
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund

FROM deps AS build
COPY tsconfig.json tsconfig.build.json ./
COPY scripts/build.mjs ./scripts/
COPY src ./src
# Dev dependencies (tsc) are needed for the build only; pruning keeps the compiled native modules.
RUN npm run build \
  && npm prune --omit=dev --no-audit --no-fund

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    STORAGE_URL=sqlite:///app/data/bot.sqlite \
    HTTP_PORT=8080
WORKDIR /app
RUN groupadd --system --gid 10001 bot \
  && useradd --system --uid 10001 --gid bot --home-dir /app bot \
  && mkdir -p /app/data && chown bot:bot /app/data
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
COPY locales ./locales
# The signing page's script and style, bundled by the server at its first request (docs/send.md).
COPY web/sign ./web/sign
COPY web/app ./web/app
# The statements' chart font (src/shared/statements/spend-chart.ts): the slim image has no system fonts.
COPY assets ./assets
USER 10001:10001
VOLUME ["/app/data"]
EXPOSE 8080
# Liveness only (/healthz: the process and its store). An outage of the service or of
# Telegram shows on /readyz and never makes the container unhealthy or restarts it.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.HTTP_PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# node directly (not npm) so SIGTERM reaches the process and shutdown is graceful; the same
# command as `npm start`, flags included (docs/performance.md: the young generation's size).
CMD ["node", "--max-semi-space-size=8", "dist/main.js"]
