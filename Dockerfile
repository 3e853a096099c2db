# syntax=docker/dockerfile:1
#
# Network Tools API: one compiled executable on a distroless glibc base (docs/operations.md).
#
#   docker build -t network-tools-api:0.5.0 .
#   docker run --rm -p 3000:3000 --read-only --cap-drop ALL --stop-timeout 15 network-tools-api:0.5.0
#
# Configuration is environment only (README "Configuration"); the image writes no file, so a
# read-only root file system works as is.

# ---- build: the official Bun image, pinned to the version package-lock.json resolves ----------
FROM oven/bun:1.4.5 AS build
WORKDIR /src
# Production dependencies exactly as package-lock.json pins them (bun reads npm's lockfile and
# --frozen-lockfile refuses any drift); no install scripts: nothing needs one to compile.
COPY package.json package-lock.json ./
RUN bun install --frozen-lockfile --production --ignore-scripts
COPY tsconfig.json ./
COPY src ./src
# The same command as `npm run build`: everything the service serves (docs assets included) is
# embedded in the executable.
RUN bun build --compile --minify src/main.ts --outfile /out/network-tools-api

# ---- runtime: glibc and nothing else; the executable needs only libc, libm, libdl, libpthread ----
FROM gcr.io/distroless/base-nossl-debian12:nonroot
COPY --from=build --chown=0:0 --chmod=0555 /out/network-tools-api /usr/local/bin/network-tools-api
# 65532 is distroless's "nonroot"; numeric, so Kubernetes' runAsNonRoot can verify it.
USER 65532:65532
ENV PORT=3000
EXPOSE 3000
# distroless has no curl: the executable probes itself (GET http://127.0.0.1:$PORT/v1/health),
# exit 0 healthy, 1 not.
HEALTHCHECK --interval=15s --timeout=5s --start-period=10s --retries=3 \
  CMD ["/usr/local/bin/network-tools-api", "healthcheck"]
# SIGTERM drains in-flight requests within SHUTDOWN_TIMEOUT_MS (10 s by default): give
# `docker stop` more than that (--stop-timeout 15 above).
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/network-tools-api"]
