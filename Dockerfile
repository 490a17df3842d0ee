FROM python:3.11-slim
WORKDIR /srv/solveverify
RUN apt-get update && apt-get install -y --no-install-recommends libgl1 libglib2.0-0 \
    && rm -rf /var/lib/apt/lists/*
COPY requirements/base.lock ./requirements/
RUN pip install --no-cache-dir --no-deps -r requirements/base.lock
COPY pyproject.toml README.md ./
COPY app ./app
RUN pip install --no-cache-dir --no-deps -e . \
    && useradd --system --uid 10001 --home-dir /srv/solveverify solveverify
# Never root; the embedded SQLite default (no DATABASE_URL) writes under /srv/solveverify/data.
RUN mkdir -p /srv/solveverify/data && chown solveverify /srv/solveverify/data
USER solveverify
ENV SOLVEVERIFY_DATABASE_URL=sqlite+aiosqlite:////srv/solveverify/data/solveverify.db
EXPOSE 8000
HEALTHCHECK --interval=10s --timeout=3s --retries=3 \
    CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=2)"]
CMD ["solveverify", "serve", "--host", "0.0.0.0", "--port", "8000"]
