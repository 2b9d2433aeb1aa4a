# Debian 12 image that builds and tests touchstone on CPU. Keep the package list in step with
# scripts/setup.sh (the image runs that same script).
FROM debian:12
COPY . /src/touchstone
WORKDIR /src/touchstone
RUN scripts/setup.sh && rm -rf /var/lib/apt/lists/*
RUN scripts/test.sh
CMD ["scripts/run.sh"]
