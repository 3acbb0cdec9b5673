# syntax=docker/dockerfile:1
# image: lookout/control-plane
#
# The Lookout control plane: HTTP API (LOOKOUT_HTTP_PORT, 8080) and the agents' gRPC listener
# (LOOKOUT_RPC_PORT, 8081, HTTP/2 cleartext). Build from the repository root:
#
#   docker build -f deploy/docker/control-plane.Dockerfile -t lookout/control-plane:0.1.0 .
#
# Stages: `build` compiles the TypeScript with every dependency; `deps` installs only the control
# plane's production dependencies (and compiles better-sqlite3's native module when no prebuilt
# binary can be downloaded); the final stage holds node, those dependencies and the compiled
# JavaScript, and runs as the unprivileged `node` user.

# Node.js 22 LTS, the documented runtime (package.json engines; CI also tests 24).
ARG NODE_IMAGE=node:22-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json tsconfig.json tsconfig.base.json ./
COPY proto/package.json proto/
COPY shared/package.json shared/
COPY control-plane/package.json control-plane/
COPY agent/package.json agent/
# --ignore-scripts: the root `prepare` script (tsc -b) needs the sources, copied below; nothing in this
# stage needs a native module, since only the TypeScript compiler runs here.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY proto/tsconfig.json proto/
COPY proto/src proto/src
COPY shared/tsconfig.json shared/
COPY shared/src shared/src
COPY control-plane/tsconfig.json control-plane/
COPY control-plane/src control-plane/src
RUN npx tsc -b control-plane
# The web app (Vite): static files, served by the control plane from control-plane/web/dist.
COPY control-plane/web control-plane/web
RUN npm run build:web

FROM ${NODE_IMAGE} AS deps
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
COPY proto/package.json proto/
COPY shared/package.json shared/
COPY control-plane/package.json control-plane/
COPY agent/package.json agent/
RUN npm ci --omit=dev --ignore-scripts --workspace @lookout/control-plane --no-audit --no-fund \
  && npm rebuild better-sqlite3 \
  && npm cache clean --force

FROM ${NODE_IMAGE}
# MALLOC_ARENA_MAX=2: glibc's malloc keeps two arenas, not one per thread that allocates (the SQLite
# checkpointer and ping writer, libuv's pool, V8's compiler threads): 15-30 MB less RSS at 100,000
# monitors for no measured CPU (docs/decisions.md, "Memory knobs").
ENV NODE_ENV=production \
    MALLOC_ARENA_MAX=2 \
    LOOKOUT_HTTP_HOST=0.0.0.0 \
    LOOKOUT_HTTP_PORT=8080 \
    LOOKOUT_RPC_PORT=8081 \
    LOOKOUT_DATA_DIR=/var/lib/lookout
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/proto/package.json ./proto/package.json
COPY --from=build /app/proto/dist ./proto/dist
COPY --from=build /app/shared/package.json ./shared/package.json
COPY --from=build /app/shared/dist ./shared/dist
COPY --from=build /app/control-plane/package.json ./control-plane/package.json
COPY --from=build /app/control-plane/dist ./control-plane/dist
COPY --from=build /app/control-plane/web/dist ./control-plane/web/dist
COPY control-plane/bin ./control-plane/bin
# The SQLite store's directory (only used when LOOKOUT_MONGODB_URI is unset).
RUN mkdir -p /var/lib/lookout && chown node:node /var/lib/lookout
VOLUME ["/var/lib/lookout"]
# 1000 is the image's `node` user; numeric, so Kubernetes can verify runAsNonRoot.
USER 1000:1000
EXPOSE 8080 8081
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.LOOKOUT_HTTP_PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# SIGTERM drains: /readyz turns 503, agent streams are ended (agents reconnect elsewhere), in-flight
# requests finish within LOOKOUT_SHUTDOWN_GRACE_MS, queued pings are written.
STOPSIGNAL SIGTERM
CMD ["node", "control-plane/dist/main.js"]
