# Debian 12 image that builds and tests touchstone on CPU. The image runs scripts/setup.sh, so
# its packages are the project's own list. .dockerignore keeps build outputs out of the context;
# .git comes in (with git, from setup.sh) so reports name the commit they were built from.
#   docker build -f docker/cpu.Dockerfile -t touchstone-cpu .
#   docker run --rm touchstone-cpu                  # the main job (scripts/run.sh)
#   docker run --rm touchstone-cpu scripts/test.sh  # every test
FROM debian:12
COPY . /src/touchstone
WORKDIR /src/touchstone
RUN scripts/setup.sh && rm -rf /var/lib/apt/lists/*
RUN scripts/build.sh
CMD ["scripts/run.sh"]
