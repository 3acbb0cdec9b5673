# syntax=docker/dockerfile:1
# image: lookout/agent
#
# A Lookout region agent: connects out to the control plane's gRPC listener
# (LOOKOUT_AGENT_CONTROL_PLANE_URL) and serves /metrics and /healthz on LOOKOUT_AGENT_METRICS_PORT (9464).
# Build from the repository root:
#
#   docker build -f deploy/docker/agent.Dockerfile -t lookout/agent:0.1.0 .
#
# Stages: `build` compiles the TypeScript; `deps` installs only the agent's production dependencies
# (no SQLite, no MongoDB driver, no native modules); the final stage runs as the `node` user.

# Node.js 22 LTS, the documented runtime (package.json engines; CI also tests 24).
ARG NODE_IMAGE=node:22-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json tsconfig.json tsconfig.base.json ./
COPY proto/package.json proto/
COPY shared/package.json shared/
COPY control-plane/package.json control-plane/
COPY agent/package.json agent/
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY proto/tsconfig.json proto/
COPY proto/src proto/src
COPY shared/tsconfig.json shared/
COPY shared/src shared/src
COPY agent/tsconfig.json agent/
COPY agent/src agent/src
RUN npx tsc -b agent

FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY proto/package.json proto/
COPY shared/package.json shared/
COPY control-plane/package.json control-plane/
COPY agent/package.json agent/
RUN npm ci --omit=dev --ignore-scripts --workspace @lookout/agent --no-audit --no-fund \
  && npm cache clean --force

FROM ${NODE_IMAGE}
ENV NODE_ENV=production \
    LOOKOUT_AGENT_METRICS_PORT=9464 \
    LOOKOUT_AGENT_DATA_DIR=/var/lib/lookout-agent
WORKDIR /app
# Ping checks run fping (docs/decisions.md, "ICMP through fping"); with libcap2-bin its package gives it
# cap_net_raw as a file capability (not setuid), which Docker's default capabilities allow.
# Browser checks need Debian's chromium (and util-linux's prlimit/unshare/setpriv, in the base image):
# `--build-arg BROWSER=true` adds it (~300 MB); without it the agent does not offer browser checks.
ARG BROWSER=false
RUN apt-get update \
  && apt-get install -y --no-install-recommends fping libcap2-bin \
  && if [ "$BROWSER" = true ]; then apt-get install -y --no-install-recommends chromium fonts-liberation; fi \
  && rm -rf /var/lib/apt/lists/*
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/proto/package.json ./proto/package.json
COPY --from=build /app/proto/dist ./proto/dist
COPY --from=build /app/shared/package.json ./shared/package.json
COPY --from=build /app/shared/dist ./shared/dist
COPY --from=build /app/agent/package.json ./agent/package.json
COPY --from=build /app/agent/dist ./agent/dist
# The agent's cache (RDAP bootstrap data, fetched when a domain check first needs it): losing it costs
# one fetch, so no VOLUME; Kubernetes mounts an emptyDir here (the root filesystem is read-only there).
RUN mkdir -p /var/lib/lookout-agent && chown node:node /var/lib/lookout-agent
# 1000 is the image's `node` user; numeric, so Kubernetes can verify runAsNonRoot.
USER 1000:1000
EXPOSE 9464
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.LOOKOUT_AGENT_METRICS_PORT||9464)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# SIGTERM: running checks finish and buffered results are flushed within LOOKOUT_AGENT_SHUTDOWN_GRACE_MS.
STOPSIGNAL SIGTERM
CMD ["node", "agent/dist/main.js"]
