# gcmkit: `make test` is the fast tier a developer runs before committing; `make test-all`
# is every leg, what CI runs (.ci/run). Both run their legs through scripts/run-legs.sh,
# which times each and ends with a table of the legs' wall times and results (a part a leg
# had to skip, outside CI, shows there; under CI=true a missing tool fails its leg).
SHELL := /bin/bash
CARGO ?= cargo
## Python: every target runs it from the project's own virtual environment, $(VENV)
## (target/venv), which `make venv` makes from the user's python3 ($(BASE_PYTHON)); nothing
## is ever installed into that python3 (a PEP 668 one, as on Debian 12 or Ubuntu 24.04,
## refuses it anyway; CI runs with such a python3: .ci/run). Every target that runs
## $(PYTHON) depends on venv, or on a target that installs into it, so each still works
## when run alone. Choose the interpreter with BASE_PYTHON=..., not PYTHON. To run a
## target as CI does, with a python3 that refuses global installs (PEP 668):
## `scripts/externally-managed-python.sh target/em-python && PATH=$PWD/target/em-python/bin:$PATH make test`.
BASE_PYTHON ?= python3
VENV = target/venv
override PYTHON := $(abspath $(VENV))/bin/python
VENV_PIP = $(PYTHON) -m pip install --quiet --disable-pip-version-check

.PHONY: venv provider-tools test test-all test-targets doc-error-codes test-build test-build-rust release-checks lint lint-rustls lint-tools speed-guard test-deps test-rust test-stack code-size test-rustls test-aarch64 test-python python-wheel-installed test-provider provider bench-provider test-hw hw-synth wheel wheel-native wheel-deps test-publish msrv test-nostd test-wasm build run selftest fmt clippy bench bench-portable arm-counts bench-cli bench-derived bench-cycles bench-cold bench-footprint bench-batch-model bench-python bench-rustls paper-tables ct-check interop fuzz-smoke

## The fast tier: formatting and lints, the Rust suites on the engines this CPU has, the
## debug-profile stack check, the Python suite on the installed wheel, and the speed guard.
## test-build first makes the two big builds at once (the test profile's and the wheel's
## release build: each is mostly one long rustc of gcmkit, which keeps under two cores
## busy); each later leg still builds what it needs when run alone.
TEST_LEGS = test-deps lint test-build test-rust test-stack test-python speed-guard
## Every leg: the fast tier, then the release-profile checks, aarch64 under qemu, the
## rustls provider, the OpenSSL provider, the hardware model, ct-check, interop, fuzz smoke,
## publish and MSRV, no_std and wasm, and the library's check on Windows and macOS.
ALL_LEGS = $(TEST_LEGS) doc-error-codes release-checks test-rustls test-aarch64 test-provider test-hw ct-check interop fuzz-smoke test-publish test-nostd test-wasm test-targets

test:
	@MAKE='$(MAKE)' scripts/run-legs.sh $(TEST_LEGS)

test-all:
	@MAKE='$(MAKE)' scripts/run-legs.sh $(ALL_LEGS)

## rustfmt (the workspace and the rustls provider's) and clippy with warnings as errors on
## the workspace, every feature on: every member but the benchmark, whose peers are a long
## C build (make lint-tools), and the constant-time harness, whose C shim needs valgrind's
## headers (linted by clippy in make lint-tools too).
lint:
	$(CARGO) fmt --all -- --check
	cd crates/gcmkit-rustls && $(CARGO) fmt -- --check
	$(CARGO) clippy --workspace --exclude gcmkit-bench --exclude gcmkit-ct-check --all-targets --all-features -- -D warnings

## clippy on the benchmark crate (aws-lc-rs's C build first) and the constant-time harness
## (valgrind's headers): not in the test legs.
lint-tools:
	$(CARGO) clippy -p gcmkit-bench -p gcmkit-ct-check --all-targets -- -D warnings

## clippy on the rustls provider (a workspace of its own) with its aws-lc-rs feature: a long
## C build, so not in the test legs (`make clippy` runs both).
lint-rustls:
	cd crates/gcmkit-rustls && $(CARGO) clippy --all-targets --all-features -- -D warnings

## gcmkit's throughput as a ratio of its peers' in one process (under a second once built):
## fails under each row's floor, half the lowest ratio measured for it, per build
## (crates/gcmkit-speed-guard/src/table.txt: AES-128-GCM one-shot, gathered and on-line
## against ring, AES-256-GCM-SIV against RustCrypto, on every engine; portable against
## RustCrypto's software backends). Built in
## the test profile, the build test-rust made (the same units, so only the guard's binary
## is linked): gcmkit at opt-level 2 with its kernels inlined, as the suites run it. The
## release build's run is in release-checks (make test-all). In this build RustCrypto's
## pure-Rust peers also run at opt-level 2 with debug assertions, which puts the narrower
## engines at 5-20x them (against 1.3-2.7x in the release build): the table keeps separate
## rows, and floors, for each build. The Python suite's
## test_speed_guard.py does the same for the Python API against pyca/cryptography.
speed-guard:
	$(CARGO) build -q $(TEST_BUILD)
	target/debug/gcmkit-speed-guard

## The test profile's build of every suite (and the binaries, the speed guard's among
## them), with the features `cargo test` unifies: one build of gcmkit for test-rust and
## speed-guard.
TEST_BUILD = --profile test --all-targets --all-features

## The fast tier's two big builds at once: the suites' (test profile) and the wheel's
## (release, maturin).
test-build:
	$(MAKE) --no-print-directory -j2 test-build-rust wheel-native
test-build-rust:
	$(CARGO) build -q $(TEST_BUILD)

## The project's venv: made from $(BASE_PYTHON), and made again when that interpreter is
## another one or the venv no longer runs (the base's path is kept in the venv). Debian and
## Ubuntu ship `python3 -m venv` apart (python3-venv): installed with apt-get if missing.
venv:
	@base=$$($(BASE_PYTHON) -c 'import sys; print(sys.executable)') || \
		{ echo "venv: cannot run $(BASE_PYTHON) (set BASE_PYTHON=/path/to/python3)"; exit 1; }; \
	if [ "$$(cat $(VENV)/gcmkit-base-python 2>/dev/null)" != "$$base" ] || ! $(PYTHON) -c '' 2>/dev/null; then \
		echo "== making the project venv $(VENV) from $$base"; rm -rf $(VENV); \
		$(BASE_PYTHON) -m venv $(VENV) || { rm -rf $(VENV) && scripts/apt-install.sh python3-venv && \
			$(BASE_PYTHON) -m venv $(VENV); } || \
			{ echo "venv: $(BASE_PYTHON) -m venv failed (Debian/Ubuntu: apt-get install python3-venv)"; exit 1; }; \
		echo "$$base" > $(VENV)/gcmkit-base-python; \
	fi

## The suites' Python packages (requirements-test.txt) in the project venv. pip runs only
## when the file differs from the copy kept in the venv at the last install.
test-deps: venv
	@cmp -s requirements-test.txt $(VENV)/requirements-test.txt || { \
		echo "== $(VENV): pip install -r requirements-test.txt"; \
		$(VENV_PIP) -r requirements-test.txt && cp requirements-test.txt $(VENV)/requirements-test.txt; }

## NIST CAVP's AES-GCM files from the venv's cryptography-vectors, for tests/nist_cavp.rs
## (which would otherwise ask whatever python3 is on PATH).
CAVP_DIR = $(shell $(PYTHON) -c "import cryptography_vectors as v, os; print(os.path.join(os.path.dirname(v.__file__), 'ciphers/AES/GCM'))")

test-rust: test-deps
	GCMKIT_CAVP_DIR=$(CAVP_DIR) $(CARGO) test $(TEST_BUILD)
	@# The engines suite's binary (test profile: opt-level 2 with debug assertions) links
	@# every x86 kernel: no kernel reaches an intrinsic left as a call (under a second).
	scripts/check-inlined.sh $$($(CARGO) test $(TEST_BUILD) --no-run \
		--message-format=json 2>/dev/null | $(PYTHON) -c "import json,sys; \
		print(*[m['executable'] for m in map(json.loads, sys.stdin) if m.get('executable') \
		and m['target']['name'] == 'engines' and m['package_id'].find('gcmkit') >= 0])")
	$(CARGO) test --doc --all-features

## Every public AEAD call (AES-GCM 128/192/256 with 12- and 60-byte IVs and a short tag,
## AES-GCM-SIV, XAES-256-GCM, DNDK-GCM, GCM-SIV (2015), GMAC, incremental GMAC, on-line
## AES-GCM, Cobblestone) on a 256 KiB thread, on every engine this CPU has, built as a
## user's program builds gcmkit: the dev profile (opt-level 0; 7 s to build gcmkit and the
## check, 6 s to run on Zen 5). The test profile's run (opt-level 2) is in test-rust
## (crates/gcmkit-stack-check/tests), the release profile's in release-checks.
test-stack:
	$(CARGO) run -q -p gcmkit-stack-check

## The release-profile checks (make test-all): the stack check and the speed guard as a
## user's release build compiles gcmkit (opt-level 3, thin LTO). Built in one cargo
## invocation so that they share one release build of gcmkit (built apart, their
## dependencies' features differ and gcmkit is compiled twice). 4m48s to build from clean
## on Zen 3 (f25 m1), 2 shared vCPUs; the runs take seconds.
## Then the XAES-256-GCM specification's 1,000,000-iteration accumulated hash on every
## engine (tests/derived_keys.rs's ignored xaes_accumulated_1000000; make test runs the
## 10,000-iteration one), from the test build test-rust made (no build in test-all): 33 s
## of CPU for portable, aesni, avx2 and avx512 (70 s wall on a loaded 2-core Zen 4, f25 m17).
RELEASE_CHECKS = -p gcmkit-stack-check -p gcmkit-speed-guard
release-checks:
	$(CARGO) build -q --release $(RELEASE_CHECKS)
	target/release/gcmkit-stack-check
	target/release/gcmkit-speed-guard
	scripts/must-print.sh "^test result: ok. 1 passed" \
		$(CARGO) test -q --profile test --all-features --test derived_keys -- --ignored --exact xaes_accumulated_1000000

## Machine code per engine and entry point in the release CLI, and the largest stack frame
## per engine in release and debug (scripts/code-size.py; v0 symbol names, so that a
## generic step compiled out of line names its vector type): docs/perf/code-size.md.
CODE_SIZE_DIR = target/code-size
code-size: venv
	RUSTFLAGS='-C symbol-mangling-version=v0' CARGO_TARGET_DIR=$(CODE_SIZE_DIR) $(CARGO) build -q --release -p gcmkit-cli
	RUSTFLAGS='-C symbol-mangling-version=v0' CARGO_TARGET_DIR=$(CODE_SIZE_DIR) $(CARGO) build -q -p gcmkit-cli
	$(PYTHON) scripts/code-size.py $(CODE_SIZE_DIR)/release/gcmkit $(CODE_SIZE_DIR)/debug/gcmkit

## The rustls provider (crates/gcmkit-rustls, a workspace of its own so that the
## workspace's --all-features never builds aws-lc-rs): handshakes against ring, records,
## RFC 9001 vectors, and loopback runs against the openssl CLI (installed if missing; if it
## cannot be, under CI the leg fails, elsewhere those two tests are skipped and the closing
## table says so). Then its speed guard: gcmkit's record protection at no less than half of
## ring's, as a ratio in one process (examples/speed_guard.rs, in the test build just made:
## a second). Then the aws-lc-rs flavour (feature aws-lc-rs: gcmkit_rustls::aws_lc_rs):
## every suite against an aws-lc-rs endpoint, gcmkit on either side (tests/handshake.rs;
## the run must show that test passing, so a cfg that drops it fails here). aws-lc-rs is a
## C build (aws-lc-sys's cc builder: a C compiler, installed if missing; no cmake).
AWS_LC_TEST = every_suite_over_aws_lc_rs_against_aws_lc_rs
test-rustls:
	@command -v openssl >/dev/null || scripts/apt-install.sh openssl || \
		scripts/leg-skip.sh "the rustls provider against the openssl CLI (tests/openssl.rs): no openssl CLI and apt-get install openssl failed"
	cd crates/gcmkit-rustls && $(CARGO) test $$(command -v openssl >/dev/null || echo '-- --skip openssl_s_')
	cd crates/gcmkit-rustls && $(CARGO) run -q --profile test --example speed_guard
	@command -v cc >/dev/null || scripts/apt-install.sh gcc || \
		{ echo "test-rustls: aws-lc-rs needs a C compiler (apt-get install gcc failed)"; exit 1; }
	cd crates/gcmkit-rustls && ../../scripts/must-print.sh "^test $(AWS_LC_TEST) ... ok$$" \
		$(CARGO) test --features aws-lc-rs --test handshake -- --exact $(AWS_LC_TEST)

## aarch64 under qemu-user: the library's suites on the armv8 and portable engines, and
## the CLI (info, selftest, vectors, a file each way). Installs qemu and the cross toolchain.
test-aarch64: test-deps
	GCMKIT_CAVP_DIR=$(CAVP_DIR) scripts/test-aarch64.sh

# The Wycheproof JSON shipped in the `wycheproof` crate (for the Python suite).
WYCHEPROOF_DIR = $(shell $(CARGO) metadata --format-version 1 --manifest-path crates/gcmkit/Cargo.toml 2>/dev/null | \
	$(PYTHON) -c "import json,sys; m=json.load(sys.stdin); print([p['manifest_path'] for p in m['packages'] if p['name']=='wycheproof'][0].rsplit('/',1)[0]+'/src/data')")

## What test-provider needs besides the provider, installed with apt-get if missing:
## libssl-dev (OpenSSL's headers, for the C test runner; without it the leg fails) and
## valgrind (without it, the memcheck step fails the leg under CI and is skipped elsewhere,
## as the closing table then says). OSSL_HEADER is the header whose absence means no
## libssl-dev.
OSSL_HEADER = /usr/include/openssl/core_dispatch.h
provider-tools:
	@[ -f $(OSSL_HEADER) ] || scripts/apt-install.sh libssl-dev || \
		{ echo "test-provider: OpenSSL 3's headers are missing and apt-get install libssl-dev failed"; exit 1; }
	@command -v valgrind >/dev/null || scripts/apt-install.sh valgrind || \
		scripts/leg-skip.sh "the provider under valgrind memcheck: valgrind missing (apt-get install valgrind)"

## The OpenSSL 3 provider (crates/gcmkit-ossl): target/provider/gcmkit.so.
provider:
	$(CARGO) build --release -p gcmkit-ossl
	mkdir -p target/provider
	cp target/release/libgcmkit_ossl.so target/provider/gcmkit.so.tmp
	mv target/provider/gcmkit.so.tmp target/provider/gcmkit.so

## The provider through EVP (OpenSSL's EVP test data, Wycheproof), bad input against
## OpenSSL's own GCM, valgrind, real TLS on 127.0.0.1 and the speed guard (EVP AES-GCM at
## no less than half of OpenSSL's default provider, in one process): about 15 s, plus about 60 s to
## build the provider from clean (release profile, 2-core VM). First, its symbols: no SIMD
## intrinsic compiled out of line (scripts/check-inlined.sh, under a second).
## Its tools first (provider-tools), so that a missing one stops the leg before the build.
test-provider: provider-tools provider venv
	scripts/check-inlined.sh target/provider/gcmkit.so
	crates/gcmkit-ossl/tests/run.sh $(PYTHON) $(WYCHEPROOF_DIR)

## openssl speed -evp: OpenSSL's AES-GCM against gcmkit's (and GCM-SIV): docs/perf/provider.md.
bench-provider: provider venv
	flock /tmp/gcmkit-timing.lock $(PYTHON) bench/provider_speed.py docs/perf/provider.md

## The Python package: build and install it as a user would, then its pytest suite and
## pyca/cryptography's own tests of `cryptography.cobblestone` against `gcmkit.cobblestone`.
## The Python package as users get it: the abi3 wheel (`make wheel`) installed into a fresh
## venv with no Rust toolchain on PATH, its pytest suite run from outside the source tree
## (the check before pytest fails if `gcmkit` is not the wheel's). The same wheel is then
## installed into the project venv for the legs that use it (interop, test-hw).
## test_key_walk.py runs the CLI (GCMKIT_CLI): the test build's, which test-build made (so
## the cargo build here is a no-op in `make test`; run alone, it builds it).
WHEEL_VENV = target/wheel-venv
NO_RUST_PATH = /usr/local/sbin:/usr/sbin:/usr/bin:/sbin:/bin
TEST_CLI = $(abspath target/debug/gcmkit)
test-python: test-deps wheel-native
	$(CARGO) build -q $(TEST_BUILD)
	rm -rf $(WHEEL_VENV) && $(PYTHON) -m venv $(WHEEL_VENV)
	$(WHEEL_VENV)/bin/python -m pip install --quiet --disable-pip-version-check -r requirements-test.txt
	env PATH=$(NO_RUST_PATH) sh -c '! command -v cargo && ! command -v rustc' >/dev/null
	env PATH=$(NO_RUST_PATH) $(WHEEL_VENV)/bin/python -m pip install --quiet --disable-pip-version-check --no-index $(NATIVE_WHEEL)
	cd $$(mktemp -d) && env PATH=$(NO_RUST_PATH) GCMKIT_WYCHEPROOF_DIR=$(WYCHEPROOF_DIR) \
		$(abspath $(WHEEL_VENV))/bin/python -c "import gcmkit, sys; f = gcmkit.__file__; print('gcmkit from', f); sys.exit(0 if f.startswith('$(abspath $(WHEEL_VENV))') else 1)" && \
		env PATH=$(NO_RUST_PATH) GCMKIT_WYCHEPROOF_DIR=$(WYCHEPROOF_DIR) GCMKIT_CLI=$(TEST_CLI) \
		$(abspath $(WHEEL_VENV))/bin/python -m pytest -q -p no:cacheprovider $(abspath crates/gcmkit-py/tests)
	@# pyca/cryptography's own test files for the modules gcmkit replaces, unchanged, from
	@# its pinned sdist (under a second once fetched; scripts/pyca-tests.py).
	env PATH=$(NO_RUST_PATH) $(WHEEL_VENV)/bin/python scripts/pyca-tests.py $(WYCHEPROOF_DIR)
	$(VENV_PIP) --force-reinstall --no-deps $(NATIVE_WHEEL)

## abi3 wheels (CPython >= 3.9, manylinux2014) for x86_64 and aarch64 Linux in target/wheels/,
## cross-built with zig (PyPI `ziglang`, which maturin runs as `python3 -m ziglang`: the
## venv's bin goes first on PATH, so python3 there is the venv's); the aarch64 standard
## library comes from rustup.
PYTHON_FIRST = env PATH=$(abspath $(VENV))/bin:$$PATH
WHEEL_DIR = target/wheels
NATIVE_TARGET = $(shell uname -m)-unknown-linux-gnu
NATIVE_WHEEL = $(WHEEL_DIR)/gcmkit-*-cp39-abi3-manylinux2014_$(shell uname -m).*.whl
wheel-deps: venv
	$(VENV_PIP) 'maturin>=1.5,<2' ziglang
wheel-native: wheel-deps
	rm -f $(NATIVE_WHEEL)
	cd crates/gcmkit-py && $(PYTHON_FIRST) $(PYTHON) -m maturin build --quiet --release --zig --compatibility manylinux2014 \
		--target $(NATIVE_TARGET) -o $(abspath $(WHEEL_DIR))
wheel: wheel-native
	rustup target add aarch64-unknown-linux-gnu
	cd crates/gcmkit-py && $(PYTHON_FIRST) $(PYTHON) -m maturin build --quiet --release --zig --compatibility manylinux2014 \
		--target aarch64-unknown-linux-gnu -o $(abspath $(WHEEL_DIR))
	ls -l $(WHEEL_DIR)

## Publishing checks: every crate packages and builds as crates.io will see it (the path
## dependencies resolved through cargo's local overlay), the docs build with -D warnings and
## missing_docs, and the MSRV builds (make msrv).
test-publish: msrv
	$(CARGO) publish --workspace --dry-run --allow-dirty
	RUSTDOCFLAGS='-D warnings -W missing_docs' $(CARGO) doc --all-features --no-deps

## The MSRV stated in Cargo.toml (rust-version), installed with rustup, checks every crate.
MSRV = $(shell sed -n 's/^rust-version = "\([0-9.]*\)".*/\1/p' Cargo.toml)
msrv:
	rustup toolchain install $(MSRV) --profile minimal
	CARGO_TARGET_DIR=target/msrv $(CARGO) +$(MSRV) check --all-features

## The core and both compat facades for embedded and browser targets, default features off,
## warnings as errors (installs the targets' standard libraries with rustup).
NOSTD_TARGETS = thumbv7em-none-eabihf wasm32-unknown-unknown
NOSTD_FEATURES = "" compat aead05 compat,aead05,arrayvec,heapless,bytes,rand_core alloc,compat,aead05
test-nostd:
	rustup target add $(NOSTD_TARGETS)
	set -e; for t in $(NOSTD_TARGETS); do for f in $(NOSTD_FEATURES); do \
		echo "== gcmkit for $$t, features [$$f]"; \
		CARGO_TARGET_DIR=target/nostd RUSTFLAGS=-Dwarnings $(CARGO) build -q -p gcmkit \
			--no-default-features --features "$$f" --target $$t; done; done

## gcmkit's doc tests as rustdoc runs them on nightly (RUSTC_BOOTSTRAP=1): each
## compile_fail example must fail with the error code it names (stable rustdoc accepts any
## error, so a renamed item or a typo would pass; tests/doc_examples.rs checks that every
## one names a code). The variable makes cargo rebuild gcmkit and its dependencies for the
## doc tests: about 4 minutes (Zen 4, f25 m17), hence in test-all, not test.
doc-error-codes:
	RUSTC_BOOTSTRAP=1 $(CARGO) test -q --doc -p gcmkit --all-features

## The library on systems CI has no machine of: `cargo check` (no linker needed) of gcmkit
## with its default and with every feature for Windows (GNU) and macOS on Apple silicon,
## and of gcmkit-fs, which is Linux-only and empty there (installs the targets' standard
## libraries with rustup).
CHECK_TARGETS = x86_64-pc-windows-gnu aarch64-apple-darwin
test-targets:
	rustup target add $(CHECK_TARGETS)
	set -e; for t in $(CHECK_TARGETS); do echo "== gcmkit and gcmkit-fs for $$t"; \
		CARGO_TARGET_DIR=target/other-os RUSTFLAGS=-Dwarnings $(CARGO) check -q -p gcmkit -p gcmkit-fs --target $$t; \
		CARGO_TARGET_DIR=target/other-os RUSTFLAGS=-Dwarnings $(CARGO) check -q -p gcmkit --all-features --target $$t; done

## The hardware model (hw/: AES-128-GCM as Amaranth RTL, simulated cycle by cycle): installs
## ./hw and the test data package into the project venv, and gcmkit's Python package (the
## differential tests' reference) unless test-python already put it there; then hw/tests.
test-hw: test-deps
	$(VENV_PIP) ./hw
	$(PYTHON) -c "import gcmkit" 2>/dev/null || $(PYTHON_FIRST) $(VENV_PIP) ./crates/gcmkit-py
	cd hw && $(PYTHON) -m pytest -q tests

## Synthesis of the hardware model (slow, not in `make test`): Yosys generic gate counts and
## ECP5 place and route per unit and per multiplier, then the cycle counts and the plot:
## hw/results/{synth.json,cycles.json,area-throughput.png}, quoted by docs/hardware.md.
hw-synth: venv
	$(VENV_PIP) './hw[synth]'
	nice $(PYTHON) -m gcmkit_hw.cli synth --json hw/results/synth.json
	$(PYTHON) -m gcmkit_hw.report hw/results

## The portable engine on wasm32 (WASI): the built-in known-answer tests and the published
## Wycheproof files (AES-GCM, AES-GCM-SIV, GMAC, Cobblestone) as one WASI program
## (scripts/wasm-kat), run under wasmtime's Python embedding (PyPI `wasmtime`) by
## scripts/wasi-run.py. Installs the target's standard library with rustup.
test-wasm: venv
	rustup target add wasm32-wasip1
	$(VENV_PIP) 'wasmtime>=20'
	$(CARGO) build -q --release -p gcmkit-wasm-kat --target wasm32-wasip1
	$(PYTHON) scripts/wasi-run.py target/wasm32-wasip1/release/gcmkit-wasm-kat.wasm

build:
	$(CARGO) build --release -p gcmkit-cli

## The main job, as the README shows it.
selftest: build
	./target/release/gcmkit selftest

fmt:
	$(CARGO) fmt --all
	cd crates/gcmkit-rustls && $(CARGO) fmt

clippy: lint lint-rustls lint-tools

## Side-by-side benchmark with peers: writes docs/perf/engines.{md,json,png}.
bench: venv
	cd bench && $(CARGO) run --release -- ../docs/perf
	$(VENV_PIP) matplotlib
	$(PYTHON) bench/plot.py docs/perf/engines.json docs/perf/engines.png

## Cycles per call (16 B to 1 MiB) for AES-GCM and AES-GCM-SIV, every engine beside
## aws-lc-rs and ring, and the bulk floor model of this CPU: docs/perf/cycles-<cpu>.md (one file per CPU; docs/perf/cycles.md indexes them).
bench-cycles:
	cd bench && $(CARGO) run --release -- cycles ../docs/perf

## Cold single calls (16 B to 16 KiB), the cipher evicted from L1i, the op cache and L2
## before each (4 MiB of code and of data walked), gcmkit beside ring and aws-lc-rs, median
## of 1501 calls: docs/perf/cold-<cpu>.md. About 3 minutes.
bench-cold:
	cd bench && $(CARGO) run --release -- cold ../docs/perf

## Cold-call footprint: the code and data lines (64 B) each cold cell's call touches,
## counted exactly under valgrind's lackey, gcmkit (aesni) beside ring and aws-lc-rs on
## 128-bit vectors (bench/footprint.py): what `make bench-cold` times on a noisy core.
bench-footprint:
	@command -v valgrind >/dev/null || scripts/apt-install.sh valgrind
	cd bench && $(CARGO) build --release
	python3 bench/footprint.py target/release/gcmkit-bench --table docs/perf/footprint.md

## The avx2 stitched AES-128-GCM batch written out by hand in variants
## (bench/batch-model/gen.py): what its multiplies, shuffles and memory accesses cost on
## this CPU, in cycles per batch.
## Needs AVX2 with VAES and VPCLMULQDQ; not part of `make test`.
bench-batch-model: venv
	cd bench/batch-model && $(PYTHON) gen.py && $(CARGO) run --release -q

## XAES-256-GCM and DNDK-GCM per-message overhead against AES-256-GCM: docs/perf/derived.md.
bench-derived:
	cd bench && $(CARGO) run --release -- derived ../docs/perf

## The portable engine against RustCrypto's software backends (and the aesni engine):
## docs/perf/portable.md. RustCrypto's backend is fixed at build time: own target dir.
bench-portable:
	cd bench && RUSTFLAGS='--cfg aes_backend="soft" --cfg polyval_backend="soft"' \
		CARGO_TARGET_DIR=$(abspath target/soft-backends) $(CARGO) run --release -- portable ../docs/perf

## The armv8 engine's instruction counts per block (Arm speed cannot be measured here):
## docs/perf/armv8.md, from the disassembly of the aarch64 CLI (after make test-aarch64).
arm-counts: venv
	CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc \
		$(CARGO) build --release -p gcmkit-cli --target aarch64-unknown-linux-gnu
	$(PYTHON) bench/arm_counts.py target/aarch64-unknown-linux-gnu/release/gcmkit docs/perf/armv8.md

## gcmkit encrypt/decrypt of a 1 GiB file against age: writes docs/perf/cli.md.
bench-cli:
	bench/cli_vs_age.sh 1024

## gcmkit's Python package against pyca/cryptography (the AEADs, then Cobblestone against
## cryptography.cobblestone and a plain copy): writes docs/perf/python.md.
bench-python: venv
	$(PYTHON_FIRST) $(VENV_PIP) ./crates/gcmkit-py cryptography
	flock /tmp/gcmkit-timing.lock $(PYTHON) crates/gcmkit-py/bench/bench_vs_cryptography.py docs/perf/python.md
	flock /tmp/gcmkit-timing.lock $(PYTHON) crates/gcmkit-py/bench/bench_cobblestone.py docs/perf/python.md

## A rustls connection pair in memory with gcmkit's provider against ring's and aws-lc-rs's:
## docs/perf/rustls.md. Built first (aws-lc-rs is a long C build), timed under the lock.
bench-rustls:
	cd crates/gcmkit-rustls && $(CARGO) bench --features aws-lc-rs --bench connection --no-run
	cd crates/gcmkit-rustls && flock /tmp/gcmkit-timing.lock \
		$(CARGO) bench --features aws-lc-rs --bench connection -- ../../docs/perf/rustls.md

## The papers' performance tables on this machine: docs/perf/paper-tables.{md,json,png}.
paper-tables: venv
	cd bench && $(CARGO) run --release -- paper-tables ../docs/perf
	$(VENV_PIP) matplotlib
	$(PYTHON) bench/plot_paper.py docs/perf/paper-tables.json docs/perf/paper-tables.png

## Constant-time check: MemorySanitizer taint on every engine this CPU has (avx2 and avx512
## included; needs rustup's rust-src, installed if missing), with negative controls each
## engine must flag; valgrind memcheck on portable and aesni; the timing test as a second
## opinion (assurance/ct/run.sh, docs/assurance.md).
ct-check:
	assurance/ct/run.sh

## This checkout's wheel, built and installed into the project venv (for the legs that
## import gcmkit outside the wheel's test venv).
python-wheel-installed: test-deps wheel-native
	$(VENV_PIP) --force-reinstall --no-deps $(NATIVE_WHEEL)

## gcmkit against Go, Java, Node (AES-GCM) and pyca/cryptography (AES-GCM-SIV), both ways.
interop: python-wheel-installed
	$(PYTHON) interop/run.py

## Fuzz targets for a fixed time each (stable Rust runner; corpora in fuzz/corpus/).
fuzz-smoke:
	$(CARGO) build --profile fuzz -q -p gcmkit-fuzz
	cd fuzz && FUZZ_SECONDS=$${FUZZ_SECONDS:-10} ../target/fuzz/fuzz_smoke
