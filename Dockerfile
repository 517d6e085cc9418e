# syntax=docker/dockerfile:1
# ProAm Connect: one image serving the web app, the API and media on one port.
#   docker build -t proam-connect .
#   docker run -p 3000:3000 -v proam-data:/data proam-connect
# Configuration is the environment (README "Configuration", .env.example).

ARG NODE_IMAGE=node:24-bookworm-slim

# ---- build: every dependency, then contract, web and API ----
FROM ${NODE_IMAGE} AS build
WORKDIR /app
# The manifests first, so a source change does not reinstall the dependencies.
COPY package.json package-lock.json ./
COPY packages/contract/package.json packages/contract/
COPY apps/api/package.json apps/api/
COPY apps/web/package.json apps/web/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# ---- runtime: production dependencies and the built files only ----
FROM ${NODE_IMAGE} AS runtime
# MALLOC_MMAP_THRESHOLD_: glibc returns the logins' 19 MiB hashing buffers to
# the system instead of keeping them in its arenas (test-support/server-process.ts).
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data \
    MALLOC_MMAP_THRESHOLD_=1048576
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/contract/package.json packages/contract/
COPY apps/api/package.json apps/api/
COPY apps/web/package.json apps/web/
# The API's production dependencies and @proam/contract's, not the web app's
# (served as built files). Prebuilt native parts (sharp, @node-rs/argon2) come
# as platform packages from the registry: nothing is compiled here.
RUN npm ci --omit=dev --workspace=@proam/api --no-audit --no-fund \
  && npm cache clean --force
# What `node apps/api/dist/server.bundle.js` reads: its own build (the libraries
# it does not bundle come from node_modules above), the contract's
# build (imported as @proam/contract), the SQL migrations it applies at
# start-up, and the web build it serves at / (WEB_DIST's default).
COPY --from=build /app/packages/contract/dist packages/contract/dist
COPY --from=build /app/apps/api/dist apps/api/dist
COPY --from=build /app/apps/api/drizzle apps/api/drizzle
COPY --from=build /app/apps/web/dist apps/web/dist
# The app's files stay root's (read-only to the server); only DATA_DIR is
# writable: the PGlite database, the mail outbox, local media, the dev JWT secret.
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
# Liveness only (/readyz also asks the database); no curl in slim images.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# The built server itself, not `npm start` (which would try to build): it
# handles SIGTERM (drains, then exits 0).
CMD ["node", "--max-semi-space-size=8", "apps/api/dist/server.bundle.js"]
