# NVIDIA CUDA devel image (Ubuntu 24.04, nvcc 13.0 with cuBLAS) that builds the `cuda` preset:
# the library with the CUDA kernel set (sm_90 + PTX), the tools and the tests. The optional
# peers (libtorch, oneDNN, XNNPACK) are left out; their plug-ins build only where found.
#   docker build -f docker/cuda.Dockerfile -t touchstone-cuda .
#   docker run --rm --gpus all touchstone-cuda                     # the CUDA checks, below
#   docker run --rm --gpus all touchstone-cuda ctest --test-dir build/cuda -R 'Cuda|StandInDevice'
FROM nvidia/cuda:13.0.0-devel-ubuntu24.04
ENV DEBIAN_FRONTEND=noninteractive
RUN apt-get update -qq && apt-get install -y -qq --no-install-recommends \
      cmake ninja-build g++ git ccache libgtest-dev libgmock-dev libbenchmark-dev \
      libopenblas-dev nlohmann-json3-dev libcli11-dev libhwy-dev libmpfr-dev \
    && rm -rf /var/lib/apt/lists/*
COPY . /src/touchstone
WORKDIR /src/touchstone
RUN cmake --preset cuda -B build/cuda -DTS_CUDA=ON && cmake --build build/cuda -j"$(nproc)"
CMD ["scripts/cuda_check.sh", "build/cuda", "/tmp/cuda-check"]
