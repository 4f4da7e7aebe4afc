# A thin front over CMake. The README's two commands are `make test` and `make demo`.
#   make deps    install missing build dependencies (Debian: apt-get, see .ci/deps)
#   make build   configure and build build/ (RelWithDebInfo, warnings are errors)
#   make test    deps, then ctest in build/ and in build-asan/ (ASan + UBSan, Debug)
#   make demo    deps, build, run build/samples/demo: it writes build/ricochet-demo.png
#   make bench   deps, Release build in build-bench/, run the bench's `run_bench` target
#   make lint    clang-tidy and cppcheck over the library and samples (.ci/lint)
#   make valgrind  the tests under valgrind memcheck in build-valgrind/ (.ci/valgrind)
#   make tsan    the tests under ThreadSanitizer in build-tsan/ (.ci/tsan)
#   make determinism  the determinism test in six builds (gcc -O0/-O2/-O3 native, clang -O2, ASan, no SIMD); hashes
#   make soak    deps, Release build in build-bench/, run bench/soak (1,000,000 steps; SOAK_ARGS='--steps N')
#   make fuzz    clang + libFuzzer build in build-fuzz/, each fuzz target run FUZZ_SECONDS (120) seconds
#                from the committed corpus with FUZZ_SEED (1), so that CI repeats a run made here
#   make fuzz-long  the same for FUZZ_LONG_SECONDS (1800) seconds each, then the grown corpus merged
#                back into fuzz/corpus/ (commit it: the next short runs start from there)
#   make clean   remove the build directories
# Extra configure options: make build CMAKE_ARGS='-DRICOCHET_BUILD_BENCH=OFF'

CMAKE      ?= cmake
CTEST      ?= ctest
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_ARGS ?=
BUILD      := build
ASAN       := build-asan
BENCH      := build-bench
FUZZ       := build-fuzz
FUZZ_SECONDS ?= 120
FUZZ_LONG_SECONDS ?= 1800
FUZZ_SEED ?= 1

MAKEFLAGS  += --no-print-directory

# Each step runs CMake, which parallelises by itself; keep the steps in order.
.NOTPARALLEL:
.PHONY: all deps build build-asan test demo bench soak determinism lint valgrind tsan fuzz fuzz-build fuzz-long clean

all: build

deps:
	@bash .ci/deps

build:
	$(CMAKE) -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRICOCHET_WERROR=ON $(CMAKE_ARGS)
	$(CMAKE) --build $(BUILD) --parallel $(JOBS)

build-asan:
	$(CMAKE) -S . -B $(ASAN) -DCMAKE_BUILD_TYPE=Debug -DRICOCHET_WERROR=ON -DRICOCHET_SANITIZE=ON $(CMAKE_ARGS)
	$(CMAKE) --build $(ASAN) --parallel $(JOBS)

# Both suites run even when the first fails; the target fails if either did.
test: deps build build-asan
	@status=0; \
	echo "== ctest: $(BUILD)"; (cd $(BUILD) && $(CTEST) --output-on-failure -j $(JOBS)) || status=1; \
	echo "== ctest: $(ASAN) (AddressSanitizer + UndefinedBehaviorSanitizer)"; \
	(cd $(ASAN) && $(CTEST) --output-on-failure -j $(JOBS)) || status=1; \
	exit $$status

demo: deps build
	$(BUILD)/samples/demo --out $(BUILD)/ricochet-demo.png

bench: deps
	@test -f bench/CMakeLists.txt || { echo "make bench: bench/CMakeLists.txt does not exist yet" >&2; exit 1; }
	$(CMAKE) -S . -B $(BENCH) -DCMAKE_BUILD_TYPE=Release -DRICOCHET_WERROR=ON -DRICOCHET_BUILD_BENCH=ON \
	  -DRICOCHET_BUILD_TESTS=OFF -DRICOCHET_BUILD_SAMPLES=OFF $(CMAKE_ARGS)
	$(CMAKE) --build $(BENCH) --parallel $(JOBS)
	$(CMAKE) --build $(BENCH) --target run_bench

# Same bits from every compiler and optimisation level: .ci/determinism prints each build's hash.
determinism: deps
	@JOBS=$(JOBS) CMAKE=$(CMAKE) bash .ci/determinism

# The soak is long (about an hour for the full run): never part of `make test`.
SOAK_ARGS ?=
soak: deps
	$(CMAKE) -S . -B $(BENCH) -DCMAKE_BUILD_TYPE=Release -DRICOCHET_WERROR=ON -DRICOCHET_BUILD_BENCH=ON \
	  -DRICOCHET_BUILD_TESTS=OFF -DRICOCHET_BUILD_SAMPLES=OFF $(CMAKE_ARGS)
	$(CMAKE) --build $(BENCH) --parallel $(JOBS) --target soak
	$(BENCH)/bench/soak $(SOAK_ARGS)

lint: deps
	@JOBS=$(JOBS) bash .ci/lint

valgrind: deps
	@JOBS=$(JOBS) bash .ci/valgrind

tsan: deps
	@JOBS=$(JOBS) bash .ci/tsan

# fuzz/README.md: what the targets check, how to reproduce a finding.
fuzz-build: deps
	@bash fuzz/deps.sh
	CC=clang $(CMAKE) -S . -B $(FUZZ) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRICOCHET_WERROR=ON -DRICOCHET_BUILD_FUZZ=ON \
	  -DRICOCHET_BUILD_TESTS=OFF -DRICOCHET_BUILD_SAMPLES=OFF -DRICOCHET_BUILD_BENCH=OFF -DRICOCHET_INSTALL=OFF $(CMAKE_ARGS)
	$(CMAKE) --build $(FUZZ) --parallel $(JOBS) --target fuzz_geometry fuzz_world fuzz_snapshot

fuzz: fuzz-build
	FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_SEED=$(FUZZ_SEED) bash fuzz/run.sh $(FUZZ)

fuzz-long: fuzz-build
	FUZZ_SECONDS=$(FUZZ_LONG_SECONDS) FUZZ_MERGE=1 bash fuzz/run.sh $(FUZZ)

clean:
	rm -rf $(BUILD) $(ASAN) $(BENCH) $(FUZZ) build-lint build-valgrind build-tsan build-det-*
