# The Tandem server's image (docs/operations.md, "Deploying"): `docker build -t tandem-server .` from the
# repository root, the build context because the server compiles in src/shared, the contract it
# shares with the desktop app. Only the server workspace goes in: no Electron, React or Vite.
#
# NODE_IMAGE: another Node 24 image on Debian bookworm may stand in (a mirror's copy, or a digest-
# pinned name: node:24-bookworm-slim@sha256:…) if it has apt-get, Node's headers in /usr/local and
# the `node` user (uid 1000) as the official one does. All three stages use the same one, so that
# better-sqlite3 is compiled for the very system and Node it runs on. Node 24 is the LTS the
# project runs on everywhere (package.json's engines, .node-version).
ARG NODE_IMAGE=node:24-bookworm-slim

# --- deps: the server workspace's production dependencies, from the root package-lock.json ---
FROM ${NODE_IMAGE} AS deps
# better-sqlite3 is native. Its npm package (13 and later) ships Node-API binaries for Linux on x64
# and arm64, which any Node of this major loads, and its rebuild then compiles nothing; on another
# architecture it compiles one, with these tools, against this image's own Node headers
# (node-gyp reads npm_package_config_node_gyp_nodedir; npm 11 warns of an npm_config_nodedir it
# does not know): nothing but the npm registry and Debian's packages is needed either way.
RUN apt-get update \
    && apt-get install -y --no-install-recommends g++ make python3 \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /app
ENV npm_package_config_node_gyp_nodedir=/usr/local \
    npm_config_update_notifier=false
COPY package.json package-lock.json ./
COPY server/package.json server/
# No install script runs but better-sqlite3's (the root package.json's allowScripts says the same);
# then what only a compile reads goes: the build's leftovers and SQLite's sources (~20 MB).
RUN --mount=type=cache,target=/root/.npm \
    npm ci --omit=dev --workspace server --include-workspace-root=false \
        --ignore-scripts --no-audit --no-fund \
    && npm rebuild better-sqlite3 \
    && node -e "new (require('better-sqlite3'))(':memory:').prepare('select 1').get()" \
    && find node_modules/better-sqlite3/build -type f ! -name better_sqlite3.node -delete \
    && find node_modules/better-sqlite3/build -type d -empty -delete \
    && rm -rf node_modules/better-sqlite3/deps node_modules/better-sqlite3/src

# --- build: server/dist/*.cjs, bundled by esbuild (the server's devDependency), packages external ---
FROM ${NODE_IMAGE} AS build
WORKDIR /app
ENV npm_config_update_notifier=false
COPY package.json package-lock.json ./
COPY server/package.json server/
RUN --mount=type=cache,target=/root/.npm \
    npm ci --workspace server --include-workspace-root=false --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.base.json ./
COPY src/shared src/shared
COPY server/tsconfig.json server/
COPY server/scripts server/scripts
COPY server/src server/src
RUN npm run build --workspace server

# --- runtime: node, the production node_modules and the bundles, run as the image's `node` user ---
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    TANDEM_MODE=production \
    TANDEM_API_HOST=0.0.0.0 \
    TANDEM_API_PORT=8787 \
    TANDEM_DATA_DIR=/data \
    MALLOC_ARENA_MAX=2
WORKDIR /app
# The code stays root's and read-only to the server; /data is the only place it may write (the
# SQLite file of a sandbox run; production keeps everything in PostgreSQL).
RUN mkdir /data && chown node:node /data
COPY server/package.json server/
COPY --from=deps /app/node_modules node_modules
COPY --from=build /app/server/dist/main.cjs /app/server/dist/admin.cjs /app/server/dist/rotate-secrets.cjs server/dist/
USER node
EXPOSE 8787
# Slim images have no curl: node asks /healthz itself.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.TANDEM_API_PORT || 8787) + '/healthz', { signal: AbortSignal.timeout(4000) }).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# The server finishes the requests in flight on SIGTERM (up to 25 s): give it 30 s before SIGKILL
# (`docker stop -t 30`, compose's stop_grace_period).
STOPSIGNAL SIGTERM
# Memory (docs/benchmarks.md, "Server benchmark"): V8's young generation at most 8 MB a
# semi-space (Node 24 grows it to 64 MB under load and keeps it), its old generation grown 20 %
# past what a full collection left live (V8 grows it up to fourfold under load), and two malloc
# arenas (glibc gives each of the threads that compile, collect and compress its own, and keeps
# what they freed). server/bench/bench-support.ts runs the benchmarks' servers with the same.
CMD ["node", "--max-semi-space-size=8", "--heap-growing-percent=20", "server/dist/main.cjs"]
