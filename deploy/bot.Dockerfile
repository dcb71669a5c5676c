# The Harkness Discord bot. Build from the repository root:
#   docker build -f deploy/bot.Dockerfile -t harkness-bot .
# Run it with the token in the environment (never baked into the image), its SQLite store on
# a named volume (the store lives in /data/harkness.db; the volume outlives the container):
#   docker run -d --name harkness-bot --restart on-failure:5 --env-file deploy/.env \
#     -v harkness-data:/data harkness-bot
# deploy/compose.yaml runs it next to PostgreSQL 16. The image also has harkness-sheets
# (--entrypoint harkness-sheets) and runs as uid 10001: files mounted into it must be
# readable by that uid.

# Base image: an exact Python release on an exact Debian release (trixie), the same in both
# stages. digest: run deploy/pin-images.sh, which writes @sha256:… after each tag in deploy/
# (what the tag names on Docker Hub then): the image is rebuilt from the same bytes until
# the tag is moved on purpose.
FROM python:3.11.17-slim-trixie AS build
WORKDIR /src
COPY pyproject.toml README.md ./
COPY core ./core
COPY bot ./bot
COPY sheets ./sheets
# Harkness alone: its dependencies come from the lock, in the image below.
RUN pip wheel --no-cache-dir --no-deps --wheel-dir /wheels .

FROM python:3.11.17-slim-trixie
RUN useradd --create-home --uid 10001 harkness \
    && mkdir -p /data \
    && chown harkness:harkness /data
# Every dependency of [bot,sheets,images,pairing] at the version deploy/lock.sh resolved, each
# file checked against its sha256 (the versions CI tests): with the Sheets extra, so that a
# tournament can be kept in a Google Sheet (link-sheet), and the pairing engine, so that
# /round pair works. Then Harkness itself, without letting pip fetch anything else.
COPY deploy/requirements.lock /tmp/requirements.lock
RUN pip install --no-cache-dir --require-hashes -r /tmp/requirements.lock \
    && rm /tmp/requirements.lock
COPY --from=build /wheels /wheels
RUN pip install --no-cache-dir --no-deps /wheels/*.whl && rm -rf /wheels
USER harkness
WORKDIR /home/harkness
# The SQLite default lives on a volume; compose points HARKNESS_DATABASE_URL at PostgreSQL.
ENV PYTHONUNBUFFERED=1 \
    HARKNESS_DATABASE_URL=sqlite:////data/harkness.db \
    HARKNESS_HEALTH_FILE=/tmp/harkness-bot.alive \
    HARKNESS_LOG_FORMAT=json
VOLUME ["/data"]
# Healthy while connected to Discord: the bot touches the heartbeat file every 30 s.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["python", "-m", "bot.health"]
# harkness-bot closes the gateway and the database on SIGTERM.
STOPSIGNAL SIGTERM
ENTRYPOINT ["harkness-bot"]
