# gcmkit: `make test` is the one test command (CI runs it through .ci/run).
SHELL := /bin/bash
CARGO ?= cargo
PYTHON ?= python3

.PHONY: test test-deps test-rust build run selftest fmt clippy bench

## Everything: dependencies, then every test suite.
test: test-deps test-rust

test-deps:
	$(PYTHON) -m pip install --quiet --disable-pip-version-check -r requirements-test.txt

test-rust:
	$(CARGO) test --workspace --all-targets
	$(CARGO) test --workspace --doc

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

## gcmkit encrypt/decrypt of a 1 GiB file against age: writes docs/perf/cli.md.
bench-cli:
	bench/cli_vs_age.sh 1024
