# The two commands of the README:
#   make run    installs what is missing, builds in Release and runs pith on the example page
#   make test   installs what is missing, builds and runs every test
# Everything comes from Debian 12 packages; nothing is downloaded during the build.

BUILD_DIR ?= build
BUILD_TYPE ?= Release
JOBS ?= $(shell nproc)
PITH_CORPUS ?= $(abspath ../shared/corpus)
export PITH_CORPUS

# Debian 12 packages the build and the tests need.
DEB_PACKAGES := build-essential cmake ninja-build pkg-config ccache \
	libgumbo-dev nlohmann-json3-dev libuchardet-dev libgtest-dev googletest \
	libboost1.81-dev libspdlog-dev libtomlplusplus-dev wrk \
	libssl-dev zlib1g-dev libbrotli-dev \
	yamllint python3-yaml curl

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: deps build run test clean

deps:
	@missing=$$(for p in $(DEB_PACKAGES); do \
		dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "installing:" $$missing; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi

build: deps
	cmake -S . -B $(BUILD_DIR) -G Ninja -DCMAKE_BUILD_TYPE=$(BUILD_TYPE)
	cmake --build $(BUILD_DIR) -j $(JOBS)

run: build
	$(BUILD_DIR)/pith extract --format text tests/fixtures/article.html

test: build
	cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS)

clean:
	rm -rf $(BUILD_DIR)
