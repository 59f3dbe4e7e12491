# syntax=docker/dockerfile:1
#
# The `smi` CLI in a container, for running the benchmarks on many machines
# (examples/k8s/README.md). Build from the repository root:
#
#   docker build -t ghcr.io/your-org/smi:latest .
#   docker run --rm -v "$PWD/../shared:/data/shared:ro" ghcr.io/your-org/smi:latest \
#     benchmark-local --target-corpus /data/shared/corpus --use-ptb --output - | head -c 300
#
# The image holds no data. At run time it expects:
#   /data/shared  the shared fixtures folder (`fixtures/framework`, `fixtures/protocol-config`,
#                 `fixtures/harness/manifests`): SMI_FIXTURES points here
#   /data/corpus  the packages to benchmark (the sui-packages layout), when not under /data/shared
#   /work         the working directory (uid 1000 may write here); mount the results volume
#                 here or anywhere else and name it in --output / --run-dir

ARG NODE_IMAGE=node:22-bookworm-slim

# ---- build: install from the lockfile, build every package, then drop devDependencies ----
FROM ${NODE_IMAGE} AS build
ENV CI=true \
    TURBO_TELEMETRY_DISABLED=1 \
    DO_NOT_TRACK=1 \
    NPM_CONFIG_UPDATE_NOTIFIER=false
WORKDIR /app

# pnpm at the version package.json pins ("packageManager"), from the npm registry.
COPY package.json pnpm-lock.yaml pnpm-workspace.yaml ./
RUN npm install -g "pnpm@$(node -p "require('./package.json').packageManager.replace(/^pnpm@/, '').split('+')[0]")" \
 && pnpm --version

# Every dependency of the lockfile into pnpm's store (this layer is reused while the lockfile
# does not change), then the sources.
RUN pnpm fetch
COPY . .
RUN pnpm install --frozen-lockfile --offline
RUN pnpm build \
 && test -f apps/cli/dist/cli.js

# Production dependencies only. `pnpm prune` does not work on a workspace: remove the
# node_modules folders and install again from the store (dist/ folders stay).
RUN rm -rf node_modules packages/*/node_modules apps/*/node_modules \
 && pnpm install --frozen-lockfile --offline --prod \
 && node apps/cli/dist/cli.js --version

# ---- runtime: the built workspace (dist/ + production node_modules) and an `smi` command ----
FROM ${NODE_IMAGE} AS runtime
# The commit the image was built from (`docker build --build-arg SMI_GIT_COMMIT=$(git rev-parse HEAD) .`):
# run specs record it, as they record `git rev-parse HEAD` outside the image.
ARG SMI_GIT_COMMIT=""
LABEL org.opencontainers.image.title="smi" \
      org.opencontainers.image.description="SMI: an offline Sui Move sandbox and type-inhabitation benchmark (the smi CLI)" \
      org.opencontainers.image.licenses="Apache-2.0"
ENV NODE_ENV=production \
    SMI_FIXTURES=/data/shared \
    SMI_GIT_COMMIT=${SMI_GIT_COMMIT}

COPY --from=build /app /opt/smi

# `smi` on the PATH, so that `sh -c '... exec smi ...'` wrappers (examples/k8s) and the
# ENTRYPOINT run the same thing. The working dir and mount points belong to uid 1000
# (the image's `node` user).
RUN printf '#!/bin/sh\nexec node /opt/smi/apps/cli/dist/cli.js "$@"\n' > /usr/local/bin/smi \
 && chmod 0755 /usr/local/bin/smi \
 && mkdir -p /work /data/corpus /data/shared \
 && chown 1000:1000 /work \
 && smi --version

USER 1000:1000
WORKDIR /work
ENTRYPOINT ["smi"]
CMD ["--help"]
