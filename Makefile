# The two commands of the README:
#   make run    installs what is missing, builds in Release and runs pithd with its built-in defaults
#   make test   installs what is missing, builds and runs every test: the Release build, then the
#               whole suite under AddressSanitizer+UndefinedBehaviorSanitizer with short libFuzzer
#               runs, then the server and worker-pool tests under ThreadSanitizer, then the
#               Docker images built with podman (no engine, no registry) and probed
# Everything comes from Debian 12 packages; nothing is downloaded during the build.

BUILD_DIR ?= build
ASAN_DIR ?= build-asan
TSAN_DIR ?= build-tsan
BUILD_TYPE ?= Release
JOBS ?= $(shell nproc)
PITH_CORPUS ?= $(abspath ../shared/corpus)
export PITH_CORPUS

# Debian 12 packages the build and the tests need.
DEB_PACKAGES := build-essential cmake ninja-build pkg-config ccache \
	libgumbo-dev nlohmann-json3-dev libuchardet-dev libxml2-dev libgtest-dev googletest \
	libboost1.81-dev libspdlog-dev libtomlplusplus-dev wrk \
	libssl-dev zlib1g-dev libbrotli-dev wget python3-scrapy \
	yamllint python3-yaml python3-jsonschema python3-numpy python3-matplotlib cmark-gfm curl clang libclang-rt-14-dev \
	chromium

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: deps test-deps build run test test-release test-asan test-tsan test-image refit clean

# What tests/docker/image_test.py builds the images with: podman with chroot
# isolation and vfs storage needs no daemon; debootstrap makes the base image
# from Debian's packages, as no registry is reachable; runc, as crun's cgroup
# setup is refused inside the sandboxes our machines run in.
IMAGE_PACKAGES := podman runc debootstrap

# install_missing LIST: apt-get installs those of LIST not installed yet.
define install_missing
	@missing=$$(for p in $(1); do \
		dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "installing:" $$missing; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi
endef

deps:
	$(call install_missing,$(DEB_PACKAGES))

# warcio.js, a WARC library no one here wrote, for tests/server/warc_test.py:
# the one thing the tests take from the npm registry (issue 26 asks for it),
# installed from its lock file into the tests' own folder.
WARCIO_DIR := tests/server/warcio
test-deps: deps
	@[ -d $(WARCIO_DIR)/node_modules/warcio ] || npm ci --prefix $(WARCIO_DIR) --no-audit --no-fund

build: deps
	cmake -S . -B $(BUILD_DIR) -G Ninja -DCMAKE_BUILD_TYPE=$(BUILD_TYPE)
	cmake --build $(BUILD_DIR) -j $(JOBS)

run: build
	$(BUILD_DIR)/pithd

test: test-release test-asan test-tsan test-image

test-release: build test-deps
	cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS)

# Sanitized trees use clang (libFuzzer needs it) and keep -O2 with debug info.
SANITIZED_CMAKE := -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++
export ASAN_OPTIONS ?= detect_leaks=1:strict_string_checks=1:check_initialization_order=1
export UBSAN_OPTIONS ?= print_stacktrace=1:halt_on_error=1
export TSAN_OPTIONS ?= halt_on_error=1:second_deadlock_stack=1

# Every test but the benchmarks and the memory bounds (they measure an uninstrumented
# build), plus the fuzz runs.
test-asan: test-deps
	cmake -S . -B $(ASAN_DIR) $(SANITIZED_CMAKE) -DPITH_SANITIZE=address,undefined -DPITH_BUILD_FUZZERS=ON
	cmake --build $(ASAN_DIR) -j $(JOBS)
	cd $(ASAN_DIR) && ctest --output-on-failure -j $(JOBS) -LE 'bench|memory'

# The threads live in the server: pithd, its worker pool and its fetcher, and pith warc's pipeline.
test-tsan: test-deps
	cmake -S . -B $(TSAN_DIR) $(SANITIZED_CMAKE) -DPITH_SANITIZE=thread -DPITH_BUILD_BENCH=OFF
	cmake --build $(TSAN_DIR) -j $(JOBS) --target pithd pith pith_server_unit_tests pith_pithd_tests pith_fetch_tests
	cd $(TSAN_DIR) && ctest --output-on-failure -j $(JOBS) -L 'server|fetch'

# docker/Dockerfile and docker/scraper/Dockerfile built from this checkout and
# probed (health, user, an extraction, the scraper's crawl); rootful podman.
IMAGE_DIR ?= build-image
test-image: build
	$(call install_missing,$(IMAGE_PACKAGES))
	$(SUDO) env PITH_IMAGE_DIR=$(abspath $(IMAGE_DIR)) /usr/bin/python3 tests/docker/image_test.py $(BUILD_DIR)/pith

# Every fitted model written again, in the order they read each other's
# output: the page-type classifier (its probabilities are features of the
# rest), the block model, auto's judge (its candidates are the pruned
# region), the confidence models (they read the judge's margins), and the
# title model; pith is rebuilt after each, since the next fit runs it. Then
# auto's figures out of fold and in sample. Needs ../shared/corpus.
refit: build
	/usr/bin/python3 bench/fit/fit_page_model.py --signals $(BUILD_DIR)/bench/pith_bench_signals --write
	cmake --build $(BUILD_DIR) -j $(JOBS)
	/usr/bin/python3 bench/fit/fit_blocks.py --signals $(BUILD_DIR)/bench/pith_bench_signals --write
	cmake --build $(BUILD_DIR) -j $(JOBS)
	/usr/bin/python3 bench/fit/fit_judge.py --pith $(BUILD_DIR)/pith --write
	cmake --build $(BUILD_DIR) -j $(JOBS)
	/usr/bin/python3 bench/fit/fit_confidence.py --pith $(BUILD_DIR)/pith --write
	cmake --build $(BUILD_DIR) -j $(JOBS)
	/usr/bin/python3 bench/fit/fit_title.py --pith $(BUILD_DIR)/pith --write
	cmake --build $(BUILD_DIR) -j $(JOBS)
	/usr/bin/python3 bench/quality_table.py --pith $(BUILD_DIR)/pith --strategies auto

clean:
	rm -rf $(BUILD_DIR) $(ASAN_DIR) $(TSAN_DIR) $(IMAGE_DIR)
