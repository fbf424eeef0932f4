# tokencli serve in a container: the local token service for a compose network or CI services.
#
#   docker build -t tokencli-serve .
#   docker run --rm -p 127.0.0.1:8080:8080 tokencli-serve            # the demo configuration
#   docker run --rm -p 127.0.0.1:8080:8080 -v "$PWD/service.json:/config/service.json:ro" \
#     tokencli-serve --host 0.0.0.0 --port 8080 --allow-host tokens --config /config/service.json
#
# The image holds the package as npm would publish it (`npm pack`), installed without dev
# dependencies, and runs as the unprivileged `node` user.

FROM node:24-slim AS pack
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY . .
# prepack cleans and builds dist/; the tarball is what `npm publish` would upload.
RUN npm pack --pack-destination /pkg && mv /pkg/tokencli-*.tgz /pkg/tokencli.tgz

FROM node:24-slim
ENV NODE_ENV=production
COPY --from=pack /pkg/tokencli.tgz /tmp/tokencli.tgz
RUN npm install --global --omit=dev --no-audit --no-fund /tmp/tokencli.tgz \
  && rm /tmp/tokencli.tgz \
  && npm cache clean --force
USER node
WORKDIR /home/node
EXPOSE 8080
# Answers 400 without credentials: enough to know it listens. node:24-slim has no curl.
HEALTHCHECK --interval=10s --timeout=3s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:8080/v2/oauth/tokeninfo').then((r) => process.exit(r.status < 500 ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["tokencli", "serve"]
# Every interface of the container (its network is the boundary); `tokens` is the service's name
# in the compose example, admitted by the Host check.
CMD ["--host", "0.0.0.0", "--port", "8080", "--allow-host", "tokens"]
