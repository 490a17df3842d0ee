FROM python:3.11-slim
WORKDIR /srv/solveverify
RUN apt-get update && apt-get install -y --no-install-recommends libgl1 libglib2.0-0 \
    && rm -rf /var/lib/apt/lists/*
COPY requirements/base.lock ./requirements/
RUN pip install --no-cache-dir --no-deps -r requirements/base.lock
COPY pyproject.toml README.md alembic.ini ./
COPY app ./app
COPY migrations ./migrations
RUN pip install --no-cache-dir --no-deps -e .
EXPOSE 8000
CMD ["solveverify", "serve", "--host", "0.0.0.0", "--port", "8000"]
